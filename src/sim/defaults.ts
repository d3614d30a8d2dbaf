/**
 * Default seed data of the simulator. The credentials are test values, not secrets: the
 * simulator is a test tool and must never be exposed as a real service.
 */
import type { ProjectTable } from './spec/responses.js';
import type { SimCredentials } from './types.js';

export const DEFAULT_SIM_CREDENTIALS: Readonly<SimCredentials> = Object.freeze({
  secretKey: 'sim-secret-key',
  sessionKey: 'sim-session-key',
  projectAuthToken: 'sim-project-token',
});

export const DEFAULT_SIM_CHATBOTS: readonly string[] = ['bot-demo'];

/** The random code of the one project the simulator is seeded with. */
export const DEFAULT_SIM_RANDOM_CODE = 'sim-project-0001';

/** The seeded project's two tables. */
export const DEFAULT_SIM_TABLES: readonly ProjectTable[] = [
  {
    ID: 1,
    TableName: 'leads',
    TableDisplayName: 'Leads',
    FieldDefinitions: [
      { FieldName: 'Name', FieldType: 'text' },
      { FieldName: 'Email', FieldType: 'email' },
      { FieldName: 'Phone', FieldType: 'text' },
    ],
  },
  {
    ID: 2,
    TableName: 'showings',
    TableDisplayName: 'Showings',
    FieldDefinitions: [
      { FieldName: 'MLSNumber', FieldType: 'text' },
      { FieldName: 'ShowingDate', FieldType: 'date' },
    ],
  },
];
