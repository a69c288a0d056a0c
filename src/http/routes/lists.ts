// Account lists of the calling client: upload (a raw CSV or JSON Lines body, or JSON), re-upload,
// list, read, rows, review queue and decisions, diff, delete.
import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  MAX_LIST_UPLOAD_BYTES,
  cancelListUploadOp,
  createListOp,
  getListUploadOp,
  deleteListOp,
  getListDiffOp,
  getListOp,
  listListsOp,
  listReviewOp,
  listRowsOp,
  reviewListRowOp,
  uploadListVersionOp,
} from '../../schemas/lists.ts';
import { deleteList, getList, getListDiff, listLists, listRows, reviewListRow } from '../../services/lists.ts';
import { cancelListUpload, getListUpload, uploadListOrStart } from '../../services/list-uploads.ts';
import { principalOf } from '../plugins/auth.ts';
import { route } from '../route-config.ts';

/** Raw bodies read as the upload's `content`, in the format their media type names. */
const RAW_FORMATS = { 'text/csv': 'csv', 'application/x-ndjson': 'jsonl', 'application/jsonl': 'jsonl' } as const;

const queryOf = (q: { name?: string | undefined; async: boolean }) => ({ queryName: q.name, async: q.async });

export function listRoutes(app: FastifyInstance) {
  for (const [media, format] of Object.entries(RAW_FORMATS))
    app.addContentTypeParser(media, { parseAs: 'string', bodyLimit: MAX_LIST_UPLOAD_BYTES }, (_req, body, done) =>
      done(null, { format, content: body as string }),
    );
  const clientOf = (request: Parameters<typeof principalOf>[0]) => principalOf(request).clientId;
  const upload = { bodyLimit: MAX_LIST_UPLOAD_BYTES };
  // A list matched at once is the answer; one running as a job is a 202 pointing at the job.
  const answer = (reply: FastifyReply, r: Awaited<ReturnType<typeof uploadListOrStart>>) => {
    if ('list' in r) return r.list;
    reply.code(202).header('location', `/api/list-uploads/${r.job.id}`);
    return r.job;
  };
  const settings = app.config.listJobs;
  return [
    route(
      createListOp,
      async (request, reply) =>
        answer(reply, await uploadListOrStart(app.db, clientOf(request), undefined, { ...request.body, ...queryOf(request.query) }, settings)),
      upload,
    ),
    route(
      uploadListVersionOp,
      async (request, reply) =>
        answer(reply, await uploadListOrStart(app.db, clientOf(request), request.params.listId, { ...request.body, ...queryOf(request.query) }, settings)),
      upload,
    ),
    route(listListsOp, (request) => listLists(app.db, clientOf(request), request.query)),
    route(getListOp, (request) => getList(app.db, clientOf(request), request.params.listId)),
    route(listRowsOp, (request) => listRows(app.db, clientOf(request), request.params.listId, request.query)),
    route(listReviewOp, (request) => listRows(app.db, clientOf(request), request.params.listId, { ...request.query, status: 'review' })),
    route(reviewListRowOp, (request) => reviewListRow(app.db, clientOf(request), request.params.listId, request.params.line, request.body)),
    route(getListDiffOp, (request) => getListDiff(app.db, clientOf(request), request.params.listId, { ...request.params, ...request.query })),
    route(deleteListOp, (request) => deleteList(app.db, clientOf(request), request.params.listId)),
    route(getListUploadOp, (request) => getListUpload(app.db, clientOf(request), request.params.jobId)),
    route(cancelListUploadOp, (request) => cancelListUpload(app.db, clientOf(request), request.params.jobId)),
  ];
}
