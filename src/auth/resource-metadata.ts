// OAuth 2.0 Protected Resource Metadata (RFC 9728) of the MCP server: the MCP resource
// identifier (the audience tokens for /mcp must carry) and the authorization server (the
// built-in token endpoint's issuer, or the external identity provider's, AUTH_ISSUER).
// Served by http/routes/protected-resource.ts; named by every 401 of /mcp (mcp/admission.ts).
import type { Config } from '../config.ts';
import { PERSON_SCOPES } from '../schemas/oauth.ts';

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
    // People's sign-in scopes, offered by the built-in authorization server only.
    ...(config.auth.external ? {} : { scopes_supported: [...PERSON_SCOPES] }),
    resource_name: 'Stacklens MCP server',
    resource_documentation: `${config.publicUrl}/docs`,
  };
}
