/**
 * The seven endpoints as the simulated service serves them, written from api-spec section 4 (paths,
 * methods) and section 5 (the credential each one needs). The simulator's own table, never the
 * client's (src/api/endpoints.ts): a wrong path or header in the client must fail against it.
 */
export const SIM_ENDPOINTS = {
  editChatbot: { path: '/chat/Chatbot/Edit', method: 'POST', auth: 'secret' },
  editKnowledge: { path: '/chat/Chatbot/EditKnowledge', method: 'POST', auth: 'secret' },
  // Why either credential: section 5's header table says Authorization, its examples send chatrobot-sessionkey.
  createListing: { path: '/chat/Chatbot/RealEstateCreate', method: 'POST', auth: 'secretOrSession' },
  updateListing: { path: '/chat/Chatbot/RealEstateUpdate', method: 'POST', auth: 'secretOrSession' },
  listListings: { path: '/chat/Chatbot/RealEstateList', method: 'POST', auth: 'session' },
  deleteListings: { path: '/chat/Chatbot/RealEstateDelete', method: 'POST', auth: 'secretOrSession' },
  /** `{site_url}` plus this prefix plus the project's randomCode (section 4.3). */
  listTables: { path: '/autodev/CustomTableValue/GetTableList/', method: 'GET', auth: 'project' },
} as const;

export type EndpointName = keyof typeof SIM_ENDPOINTS;
export const ENDPOINT_NAMES = Object.keys(SIM_ENDPOINTS) as EndpointName[];

/** Header names per credential (section 5), lower-case as node reads them. */
export const AUTH_HEADERS = {
  secret: 'authorization',
  session: 'chatrobot-sessionkey',
  project: 'customauth',
} as const;
