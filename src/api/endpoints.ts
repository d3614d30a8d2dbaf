/**
 * The seven endpoints of api-spec section 4, with the credential each one needs (section 5).
 * The client's table; the simulator keeps its own, written from the spec (src/sim/spec/endpoints.ts).
 */
export const ENDPOINTS = {
  editChatbot: { path: '/chat/Chatbot/Edit', method: 'POST', base: 'api', auth: 'secret' },
  editKnowledge: { path: '/chat/Chatbot/EditKnowledge', method: 'POST', base: 'api', auth: 'secret' },
  createListing: { path: '/chat/Chatbot/RealEstateCreate', method: 'POST', base: 'api', auth: 'secretOrSession' },
  updateListing: { path: '/chat/Chatbot/RealEstateUpdate', method: 'POST', base: 'api', auth: 'secretOrSession' },
  listListings: { path: '/chat/Chatbot/RealEstateList', method: 'POST', base: 'api', auth: 'session' },
  deleteListings: { path: '/chat/Chatbot/RealEstateDelete', method: 'POST', base: 'api', auth: 'secretOrSession' },
  listTables: { path: '/autodev/CustomTableValue/GetTableList/', method: 'GET', base: 'site', auth: 'project' },
} as const;

export type EndpointName = keyof typeof ENDPOINTS;
export const ENDPOINT_NAMES = Object.keys(ENDPOINTS) as EndpointName[];

/** Header names per credential (api-spec 5). */
export const AUTH_HEADERS = {
  secret: 'authorization',
  session: 'chatrobot-sessionkey',
  project: 'customauth',
} as const;
