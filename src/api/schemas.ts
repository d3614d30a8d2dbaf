/**
 * Request and response shapes of api-spec sections 2.1–2.6 and 4.1–4.3, as zod schemas.
 * Types are inferred from them. The simulator declares its own from the spec on purpose (src/sim/spec).
 */
import { z } from 'zod';
import { KEY_TYPES, SALE_TYPES, listingUpdateSchema, listingWriteSchema } from '../domain/listing.js';

export { listingWriteSchema, listingUpdateSchema };

const rgb = z
  .string()
  .regex(/^rgb\(\s*(25[0-5]|2[0-4]\d|1?\d?\d)\s*,\s*(25[0-5]|2[0-4]\d|1?\d?\d)\s*,\s*(25[0-5]|2[0-4]\d|1?\d?\d)\s*\)$/, {
    message: 'must be a colour of the form rgb(r,g,b) with each part 0-255',
  });

/** 2.1 chatbot settings (Edit). All but serialNumber optional; unknown fields rejected. */
export const chatbotSettingsSchema = z
  .object({
    serialNumber: z.string().trim().min(1),
    Name: z.string(),
    Model: z.string(),
    SystemMessage: z.string(),
    Temperature: z.number().int(),
    TimeZone: z.string(),
    AnswerSuffix: z.string(),
    ChatProfilePicture: z.string(),
    ChatIcon: z.string(),
    ChatBubbleAlign: z.number().int(),
    ChatBubbleColor: rgb,
    ChatbotPopupOnce: z.boolean(),
    ChatbotPrivacyPolicyDescription: z.string(),
    ChatbotPrivacyPolicyName: z.string(),
    ChatbotPrivacyPolicyUrl: z.string(),
    EnablePushToTalk: z.boolean(),
    EnableUploadImage: z.boolean(),
    FacebookUrl: z.string(),
    InstagramUrl: z.string(),
    RemoveChatLogOnBrowserClose: z.boolean(),
    SuggestedMessage: z.string(),
    TalkToHumanEmail: z.string(),
    TalkToHumanResponseMessage: z.string(),
    UserInputPlaceholder: z.string(),
    UserMessageColor: rgb,
    WelcomeMessage: z.string(),
    WhatsappUrl: z.string(),
    VerifyDomain: z.boolean(),
    Domains: z.string(),
    RateLimitCount: z.number().int(),
    RateLimitMessage: z.string(),
    RateLimitTime: z.number().int(),
    CustomDomain: z.string(),
    EmailForDailyChatLogs: z.string(),
    EmailForDailyLeads: z.string(),
    AIResponseLanguage: z.string(),
  })
  .partial()
  .required({ serialNumber: true })
  .strict();
export type ChatbotSettings = z.infer<typeof chatbotSettingsSchema>;

/** 2.2 knowledge-base edit, with rule 4.4.1 (SyncSiteMapDays required and 30/7/1 when syncing). */
export const knowledgeEditSchema = z
  .object({
    serialNumber: z.string().trim().min(1),
    SiteMapUrl: z.string().optional(),
    EnableSyncSiteMap: z.boolean().optional(),
    SyncSiteMapDays: z.union([z.literal(30), z.literal(7), z.literal(1)]).optional(),
    fileList: z.array(z.string()).optional(),
    text: z.string().optional(),
    googleSheetUrl: z.string().optional(),
    isRetrainGoogleSheet: z.boolean().optional(),
    websiteList: z.array(z.object({ url: z.string(), retrain: z.boolean() }).strict()).optional(),
    qaList: z.array(z.object({ key: z.string(), value: z.string() }).strict()).optional(),
  })
  .strict()
  .superRefine((value, ctx) => {
    if (value.EnableSyncSiteMap === true && value.SyncSiteMapDays === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['SyncSiteMapDays'],
        message: 'SyncSiteMapDays is required when EnableSyncSiteMap is true (one of 30, 7, 1)',
      });
    }
  });
export type KnowledgeEdit = z.infer<typeof knowledgeEditSchema>;

/** 4.1 list request. */
export const listRequestSchema = z
  .object({
    SerialNumber: z.string().trim().min(1),
    CityName: z.string().optional(),
    SaleType: z.enum(SALE_TYPES).optional(),
    MLSNumber: z.string().optional(),
    PageNumber: z.number().int().positive().optional(),
    PageSize: z.number().int().positive().optional(),
  })
  .strict();
export type ListRequest = z.infer<typeof listRequestSchema>;

/** 4.2 delete request. */
export const deleteRequestSchema = z
  .object({
    SerialNumber: z.string().trim().min(1),
    Keys: z.array(z.string().min(1)).min(1),
    KeyType: z.enum(KEY_TYPES),
  })
  .strict();
export type DeleteRequest = z.infer<typeof deleteRequestSchema>;

/**
 * Members of optional fields: a service may render an unset one as '', null or not at all, and a
 * number member as 0 or "0" too (normalise-read.ts reads every such form as "no value").
 */
const optionalText = z.string().nullish();
const optionalNumberText = z.union([z.string(), z.number()]).nullish();

/** 2.4 list item (read shape): numbers as strings ('' = none), SaleType/Images in loose forms. */
export const listingReadSchema = z.object({
  ID: z.number().int(),
  PropertyType: z.string(),
  SaleType: z.string(),
  Status: z.string(),
  Images: optionalText,
  CurrencySymbol: z.string(),
  Price: optionalNumberText,
  State: optionalText,
  City: optionalText,
  Address: optionalText,
  ZIP: optionalText,
  Area: optionalNumberText,
  Url: z.string(),
  Tours: optionalText,
  Description: optionalText,
  SpaceType: optionalText,
  LATITUDE: z.number().nullish(),
  LONGITUDE: z.number().nullish(),
  Bathrooms: z.string(),
  Bedrooms: z.string(),
  YearBuilt: z.string(),
  MLSNumber: z.string(),
  DaysOnMarket: z.string(),
  LotArea: z.string(),
  BuildingArea: z.string(),
  ParkingSpots: z.string(),
  RentPrice: optionalNumberText,
  DepositFee: optionalNumberText,
  SalePrice: optionalNumberText,
  UnitAreaPrice: optionalNumberText,
  ZestimatePrice: optionalNumberText,
  HOAMonth: optionalNumberText,
  ExtensionColumn: optionalText,
});
export type ListingRead = z.infer<typeof listingReadSchema>;

/** 2.6 project table. Field definitions may carry more members than FieldName. */
export const projectTableSchema = z.object({
  ID: z.number().int(),
  TableName: z.string(),
  TableDisplayName: z.string(),
  FieldDefinitions: z.array(z.object({ FieldName: z.string() }).loose()),
});
export type ProjectTable = z.infer<typeof projectTableSchema>;

/** 2.5 the envelope every endpoint answers with. */
export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({
    Data: data,
    Version: z.string(),
    Success: z.boolean(),
    Code: z.number().int(),
    Message: z.string(),
  });
}
/** The envelope before Data is checked: used to read Success/Code/Message of failures. */
export const looseEnvelopeSchema = envelopeSchema(z.unknown());
export type Envelope<T> = { Data: T; Version: string; Success: boolean; Code: number; Message: string };

/** Data per endpoint (section 4 table). */
export const editChatbotDataSchema = z.number().int();
export const editKnowledgeDataSchema = z.boolean();
export const createdListingIdSchema = z.union([z.string(), z.number().transform(String)]);
export const updateListingDataSchema = z.number().int();
export const listListingsDataSchema = z.object({ List: z.array(listingReadSchema), VirtualCount: z.number().int().nonnegative() });
export const deleteListingsDataSchema = z.object({ SuccessCount: z.number().int().nonnegative() });
export const listTablesDataSchema = z.array(projectTableSchema);

export type ListListingsData = z.infer<typeof listListingsDataSchema>;
