// Account lists of the calling client: upload (a raw CSV or JSON Lines body, or JSON), re-upload,
// list, read, rows, review queue and decisions, diff, delete.
import type { FastifyInstance } from 'fastify';
import {
  MAX_LIST_UPLOAD_BYTES,
  createListOp,
  deleteListOp,
  getListDiffOp,
  getListOp,
  listListsOp,
  listReviewOp,
  listRowsOp,
  reviewListRowOp,
  uploadListVersionOp,
} from '../../schemas/lists.ts';
import { deleteList, getList, getListDiff, listLists, listRows, reviewListRow, uploadList } from '../../services/lists.ts';
import { principalOf } from '../plugins/auth.ts';
import { route } from '../route-config.ts';

/** Raw bodies read as the upload's `content`, in the format their media type names. */
const RAW_FORMATS = { 'text/csv': 'csv', 'application/x-ndjson': 'jsonl', 'application/jsonl': 'jsonl' } as const;

export function listRoutes(app: FastifyInstance) {
  for (const [media, format] of Object.entries(RAW_FORMATS))
    app.addContentTypeParser(media, { parseAs: 'string', bodyLimit: MAX_LIST_UPLOAD_BYTES }, (_req, body, done) =>
      done(null, { format, content: body as string }),
    );
  const clientOf = (request: Parameters<typeof principalOf>[0]) => principalOf(request).clientId;
  const upload = { bodyLimit: MAX_LIST_UPLOAD_BYTES };
  return [
    route(createListOp, (request) => uploadList(app.db, clientOf(request), undefined, { ...request.body, queryName: request.query.name }), upload),
    route(
      uploadListVersionOp,
      (request) => uploadList(app.db, clientOf(request), request.params.listId, { ...request.body, queryName: request.query.name }),
      upload,
    ),
    route(listListsOp, (request) => listLists(app.db, clientOf(request), request.query)),
    route(getListOp, (request) => getList(app.db, clientOf(request), request.params.listId)),
    route(listRowsOp, (request) => listRows(app.db, clientOf(request), request.params.listId, request.query)),
    route(listReviewOp, (request) => listRows(app.db, clientOf(request), request.params.listId, { ...request.query, status: 'review' })),
    route(reviewListRowOp, (request) => reviewListRow(app.db, clientOf(request), request.params.listId, request.params.line, request.body)),
    route(getListDiffOp, (request) => getListDiff(app.db, clientOf(request), request.params.listId, { ...request.params, ...request.query })),
    route(deleteListOp, (request) => deleteList(app.db, clientOf(request), request.params.listId)),
  ];
}
