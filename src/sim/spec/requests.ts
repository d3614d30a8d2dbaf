/**
 * What the simulated service accepts, written from api-spec sections 2.1–2.3, 4.1, 4.2 and 4.4
 * rule 1: the simulator's own request schemas. Why not the client's (src/api/schemas.ts,
 * src/domain/listing.ts): a check shared by both sides passes whatever it gets wrong, so a client
 * schema that drifts from the spec would pass every test. Lint keeps src/sim off src/api.
 */
import { z } from 'zod';

/** Section 2.3 and 3: the enumerations of the write shape. */
export const SALE_TYPES = ['for_sale', 'for_rent'] as const;
const STATUSES = ['Active', 'PreOnMarket', 'Sold'] as const;
const AREA_UNITS = ['Square Feet', 'Square Meters'] as const;
const TOURS = ['OpenHouse', '3D'] as const;
const SPACE_TYPES = ['Entire place', 'Room'] as const;
/** Section 2.3 (update) and 4.2: which kind of identifier a key is. NewOaks: the service's own ID. */
export const KEY_TYPES = ['NewOaks', 'MLSNumber', 'URL'] as const;

export type SaleType = (typeof SALE_TYPES)[number];
export type KeyType = (typeof KEY_TYPES)[number];

const text = z.string();
/** A required text: the service refuses an empty one. */
const filled = z.string().trim().min(1);
const count = z.number().finite().nonnegative();
const amount = z.number().finite().nonnegative().optional();

/** Section 2.1, `rgb(r,g,b)` with each part 0–255. */
const rgb = z
  .string()
  .regex(/^rgb\(\s*(25[0-5]|2[0-4]\d|1?\d?\d)\s*,\s*(25[0-5]|2[0-4]\d|1?\d?\d)\s*,\s*(25[0-5]|2[0-4]\d|1?\d?\d)\s*\)$/, {
    message: 'must be a colour of the form rgb(r,g,b) with each part 0-255',
  });

/** Section 2.1: every setting but serialNumber optional; a field the table does not name is refused. */
export const simChatbotSettingsSchema = z
  .object({
    serialNumber: filled,
    Name: text.optional(),
    Model: text.optional(),
    SystemMessage: text.optional(),
    Temperature: z.number().int().optional(),
    TimeZone: text.optional(),
    AnswerSuffix: text.optional(),
    ChatProfilePicture: text.optional(),
    ChatIcon: text.optional(),
    ChatBubbleAlign: z.number().int().optional(),
    ChatBubbleColor: rgb.optional(),
    ChatbotPopupOnce: z.boolean().optional(),
    ChatbotPrivacyPolicyDescription: text.optional(),
    ChatbotPrivacyPolicyName: text.optional(),
    ChatbotPrivacyPolicyUrl: text.optional(),
    EnablePushToTalk: z.boolean().optional(),
    EnableUploadImage: z.boolean().optional(),
    FacebookUrl: text.optional(),
    InstagramUrl: text.optional(),
    RemoveChatLogOnBrowserClose: z.boolean().optional(),
    SuggestedMessage: text.optional(),
    TalkToHumanEmail: text.optional(),
    TalkToHumanResponseMessage: text.optional(),
    UserInputPlaceholder: text.optional(),
    UserMessageColor: rgb.optional(),
    WelcomeMessage: text.optional(),
    WhatsappUrl: text.optional(),
    VerifyDomain: z.boolean().optional(),
    Domains: text.optional(),
    RateLimitCount: z.number().int().optional(),
    RateLimitMessage: text.optional(),
    RateLimitTime: z.number().int().optional(),
    CustomDomain: text.optional(),
    EmailForDailyChatLogs: text.optional(),
    EmailForDailyLeads: text.optional(),
    AIResponseLanguage: text.optional(),
  })
  .strict();
export type SimChatbotSettings = z.infer<typeof simChatbotSettingsSchema>;

/** Section 2.2 with rule 4.4.1: SyncSiteMapDays is 30, 7 or 1, and required when EnableSyncSiteMap is true. */
export const simKnowledgeEditSchema = z
  .object({
    serialNumber: filled,
    SiteMapUrl: text.optional(),
    EnableSyncSiteMap: z.boolean().optional(),
    SyncSiteMapDays: z.union([z.literal(30), z.literal(7), z.literal(1)]).optional(),
    fileList: z.array(text).optional(),
    text: text.optional(),
    googleSheetUrl: text.optional(),
    isRetrainGoogleSheet: z.boolean().optional(),
    websiteList: z.array(z.object({ url: text, retrain: z.boolean() }).strict()).optional(),
    qaList: z.array(z.object({ key: text, value: text }).strict()).optional(),
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
export type SimKnowledgeEdit = z.infer<typeof simKnowledgeEditSchema>;

/** Section 2.3: the write shape of create and update, row by row of its table. */
export const simListingWriteSchema = z.object({
  SerialNumber: filled,
  SaleType: z.enum(SALE_TYPES),
  Status: z.enum(STATUSES),
  CurrencySymbol: filled,
  PropertyType: filled,
  Bedrooms: count,
  Bathrooms: count,
  Url: filled,
  MLSNumber: filled,
  YearBuilt: z.number().finite().int().nonnegative(),
  DaysOnMarket: count,
  LotArea: count,
  BuildingArea: count,
  AreaUnit: z.enum(AREA_UNITS),
  Images: z.array(text).optional(),
  Tours: z.enum(TOURS).optional(),
  ParkingSpots: count,
  Description: text.optional(),
  ExtensionColumn: z.array(z.object({ Key: text, value: text })).optional(),
  Location: text.optional(),
  Address: text.optional(),
  City: text.optional(),
  State: text.optional(),
  ZIP: text.optional(),
  Latitude: z.number().finite().min(-90).max(90).optional(),
  Longitude: z.number().finite().min(-180).max(180).optional(),
  SalePrice: amount,
  UnitAreaPrice: amount,
  HOAMonth: amount,
  ZestimatePrice: amount,
  RentPrice: amount,
  SpaceType: z.enum(SPACE_TYPES).optional(),
  DepositFee: amount,
});
export type SimListingWrite = z.infer<typeof simListingWriteSchema>;

/** Section 2.3 (update) and rule 4.4.3: the write shape plus the Key/KeyType that selects the listing. */
export const simListingUpdateSchema = simListingWriteSchema.extend({ Key: z.string().min(1), KeyType: z.enum(KEY_TYPES) });

/** Section 4.1. */
export const simListRequestSchema = z
  .object({
    SerialNumber: filled,
    CityName: text.optional(),
    SaleType: z.enum(SALE_TYPES).optional(),
    MLSNumber: text.optional(),
    PageNumber: z.number().int().positive().optional(),
    PageSize: z.number().int().positive().optional(),
  })
  .strict();

/** Section 4.2. */
export const simDeleteRequestSchema = z
  .object({
    SerialNumber: filled,
    Keys: z.array(z.string().min(1)).min(1),
    KeyType: z.enum(KEY_TYPES),
  })
  .strict();
