// OAuth 2.0 Protected Resource Metadata (RFC 9728) of the MCP server, as the MCP
// authorization spec asks: at the path-suffixed address of its resource
// (/.well-known/oauth-protected-resource/mcp, named by every 401 of /mcp in
// `WWW-Authenticate: Bearer resource_metadata="…"`) and at the root address MCP clients try
// next. Not in the OpenAPI document: it describes /mcp, which is not there either.
import type { FastifyInstance } from 'fastify';
import { PROTECTED_RESOURCE_PATH, protectedResourceMetadata } from '../../auth/resource-metadata.ts';
import { strictQuery } from '../route-config.ts';

export async function protectedResourceRoutes(app: FastifyInstance): Promise<void> {
  const metadata = protectedResourceMetadata(app.config);
  for (const url of [`${PROTECTED_RESOURCE_PATH}/mcp`, PROTECTED_RESOURCE_PATH]) {
    app.get(url, { schema: { hide: true, querystring: strictQuery(undefined) } }, async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return metadata;
    });
  }
}
