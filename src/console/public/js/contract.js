// @ts-check
// The API contract as the console's modules use it: the OpenAPI types generated for the
// typed client (clients/typescript/src/schema.ts, held to the served document by a test),
// named for the console. Types only: JSDoc imports vanish at run time, so no browser loads it.
/**
 * @typedef {import('../../../../clients/typescript/src/schema.ts').paths} Paths
 * @typedef {import('../../../../clients/typescript/src/schema.ts').components['schemas']} Schemas
 * @typedef {'get' | 'post' | 'delete'} Method
 */
/**
 * The API paths (without /api) that answer `M`.
 * @template {Method} M
 * @typedef {{ [K in keyof Paths]: K extends `/api${infer P}` ? (Paths[K] extends Record<M, object> ? P : never) : never }[keyof Paths]} ApiPath
 */
/**
 * The operation of `M` on a path.
 * @template {string} P
 * @template {Method} M
 * @typedef {`/api${P}` extends keyof Paths ? Paths[`/api${P}`] extends Record<M, infer O> ? O : never : never} Op
 */
/**
 * What a call passes: the path's {parameters}, the query and the JSON body, each as the
 * operation declares it (required when it is). No header parameter: with a console session
 * the server names the person (X-On-Behalf-Of-User) itself.
 * @template O
 * @typedef {(O extends { parameters: { path: infer A } } ? { path: A } : { path?: undefined })
 *   & (O extends { parameters: { query: infer Q } } ? { query: Q } : O extends { parameters: { query?: infer Q } } ? { query?: Q } : {})
 *   & (O extends { requestBody: { content: { 'application/json': infer B } } } ? { body: B }
 *     : O extends { requestBody?: { content: { 'application/json': infer B } } } ? { body?: B } : { body?: undefined })
 *   & { headers?: Record<string, string>, signal?: AbortSignal }} Init
 */
/**
 * The JSON answer of a successful call (null for 204).
 * @template O
 * @typedef {O extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B
 *   : O extends { responses: { 201: { content: { 'application/json': infer B } } } } ? B : null} Answer
 */
/**
 * The answer of GET or POST on a path, for screens that keep one.
 * @template {ApiPath<'get'>} P
 * @typedef {Answer<Op<P, 'get'>>} GetAnswer
 */
/**
 * @template {ApiPath<'post'>} P
 * @typedef {Answer<Op<P, 'post'>>} PostAnswer
 */
/**
 * The JSON body of POST on a path.
 * @template {ApiPath<'post'>} P
 * @typedef {Op<P, 'post'> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never} PostBody
 */
/**
 * The arguments after the path: none needed when the operation requires nothing.
 * @template O
 * @typedef {{} extends Init<O> ? [init?: Init<O>] : [init: Init<O>]} InitArgs
 */
/**
 * `get`, `post` and `del` of api.js: the path as the contract names it, then what its operation needs.
 * @typedef {<P extends ApiPath<'get'>>(path: P, ...init: InitArgs<Op<P, 'get'>>) => Promise<Answer<Op<P, 'get'>>>} Get
 * @typedef {<P extends ApiPath<'post'>>(path: P, ...init: InitArgs<Op<P, 'post'>>) => Promise<Answer<Op<P, 'post'>>>} Post
 * @typedef {<P extends ApiPath<'delete'>>(path: P, ...init: InitArgs<Op<P, 'delete'>>) => Promise<Answer<Op<P, 'delete'>>>} Del
 */
/**
 * The signed-in person's session. The session door (/console/api/session) is the console's,
 * outside the OpenAPI document; its person is the one GET /me names.
 * @typedef {{ user: NonNullable<Schemas['Me']['user']>, csrfToken: string, expiresAt: string }} Session
 * @typedef {Session['user']} User
 * @typedef {User['role']} Role
 */
/**
 * Values the console offers as choices (./choices.js has the lists).
 * @typedef {NonNullable<NonNullable<Schemas['CompanySearchRequestInput']['filter']>['employeeRangeIn']>[number]} EmployeeBand
 * @typedef {NonNullable<NonNullable<Schemas['CompanySearchRequestInput']['filter']>['revenueRangeIn']>[number]} RevenueBand
 * @typedef {Op<'/companies/{companyDomain}/cohort/{cohort}', 'get'>['parameters']['path']['cohort']} CohortType
 */

export {};
