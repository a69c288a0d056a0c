// OAuth 2.0 Protected Resource Metadata (RFC 9728) of the MCP server, as the MCP
// authorization spec asks: at the path-suffixed address of its resource
// (/.well-known/oauth-protected-resource/mcp, named by every 401 of /mcp in
// `WWW-Authenticate: Bearer resource_metadata="…"`) and at the root address MCP clients try
// next. It names the MCP resource identifier (the audience tokens for /mcp must carry) and
// the authorization server: the built-in token endpoint's issuer, or the external identity
// provider's (AUTH_ISSUER). Not in the OpenAPI document: it describes /mcp, which is not.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { strictQuery } from '../route-config.ts';

export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

/** Where the MCP resource's metadata is: the value of `resource_metadata` in its challenges. */
export function protectedResourceMetadataUrl(config: Config): string {
  // RFC 9728 §3.1: the well-known segment goes between the origin and the resource's path.
  const resource = new URL(config.mcp.resource);
  return `${resource.origin}${PROTECTED_RESOURCE_PATH}${resource.pathname}`;
}

export function protectedResourceMetadata(config: Config) {
  return {
    resource: config.mcp.resource,
    authorization_servers: [config.auth.external?.issuer ?? config.auth.issuer],
    bearer_methods_supported: ['header'],
    resource_name: 'Stacklens MCP server',
    resource_documentation: `${config.publicUrl}/docs`,
  };
}

export async function protectedResourceRoutes(app: FastifyInstance): Promise<void> {
  const metadata = protectedResourceMetadata(app.config);
  for (const url of [`${PROTECTED_RESOURCE_PATH}/mcp`, PROTECTED_RESOURCE_PATH]) {
    app.get(url, { schema: { hide: true, querystring: strictQuery(undefined) } }, async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return metadata;
    });
  }
}
