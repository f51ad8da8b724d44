/**
 * Accounts and community: profiles, follows, notifications, media upload, reports, newsletter,
 * contact messages, artist applications and moderation. Request schemas carry the spec's messages
 * (browsing-and-accounts, sections 3, 5, 7, 8, 9) so the web forms and the server share one rule.
 *
 * Responses of the spec's calls are wrapped in `{ data: ... }` (the spec reads `data.data.X`).
 */
import { z } from "zod";
import {
  APPLICATION_DESCRIPTION_MAX,
  APPLICATION_EMAIL_MAX,
  APPLICATION_NAME_MAX,
  CONTACT_NAME_MIN,
  ENGLISH_MULTILINE_TEXT,
  ENGLISH_TEXT,
  ENS_PATTERN,
  IPFS_PATH_PATTERN,
  MESSAGES,
  PROFILE_BIO_MAX,
  PROFILE_NAME_MAX,
  PROFILE_USERNAME_MAX,
  REPORT_DESCRIPTION_MAX,
  REPORT_DESCRIPTION_MIN,
  USERNAME_PATTERN,
} from "./limits.ts";
import { REPORT_REASONS, type SocialNetwork } from "./options.ts";
import { chainCollectionItemSchema, chainTokenItemSchema } from "./trading.ts";
import { ADDRESS_PATTERN } from "./wire.ts";

const EMAIL_PATTERN = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]{2,}$/;

/** Turns "" into undefined so an empty optional form field means "not given". */
const blankToNull = (value: unknown) => (typeof value === "string" && value.trim() === "" ? null : value);

const requiredEmail = (required: string, invalid: string, max = 254, maxMessage = invalid) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(max, maxMessage)
    .regex(EMAIL_PATTERN, invalid)
    .transform((email) => email.toLowerCase());

/** An http(s) link; anything else (javascript:, data:, relative paths) is refused. */
export const httpUrlSchema = z
  .string()
  .trim()
  .max(500, MESSAGES.linkInvalid)
  .refine((value) => {
    if (!URL.canParse(value)) return false;
    const { protocol, hostname } = new URL(value);
    return (protocol === "http:" || protocol === "https:") && hostname.length > 0;
  }, MESSAGES.linkInvalid);

const optionalLink = z.preprocess(blankToNull, httpUrlSchema.nullable().optional());

// --- Profile ---------------------------------------------------------------------------------

export const socialLinksSchema = z.object({
  instagram: optionalLink,
  twitter: optionalLink,
  facebook: optionalLink,
  website: optionalLink,
  discord: optionalLink,
});
export type SocialLinks = { [K in SocialNetwork]?: string | null };

const imagePath = z.preprocess(
  blankToNull,
  z.string().regex(IPFS_PATH_PATTERN, MESSAGES.imagePath).nullable().optional(),
);

/**
 * PUT /api/profile. Every field is optional: a missing field keeps its value, `null` or "" clears it.
 */
export const profileUpdateSchema = z.object({
  name: z.preprocess(
    blankToNull,
    z
      .string()
      .trim()
      .max(PROFILE_NAME_MAX, MESSAGES.nameMax)
      .regex(ENGLISH_TEXT, MESSAGES.englishOnly)
      .nullable()
      .optional(),
  ),
  username: z.preprocess(
    blankToNull,
    z
      .string()
      .trim()
      .max(PROFILE_USERNAME_MAX, MESSAGES.usernameMax)
      .regex(USERNAME_PATTERN, MESSAGES.usernamePattern)
      // Lookups treat a 0x prefix as an address.
      .refine((value) => !/^0x/i.test(value), MESSAGES.usernameAddressLike)
      .nullable()
      .optional(),
  ),
  bio: z.preprocess(
    blankToNull,
    z
      .string()
      .max(PROFILE_BIO_MAX, MESSAGES.bioMax)
      .regex(ENGLISH_MULTILINE_TEXT, MESSAGES.englishOnly)
      .nullable()
      .optional(),
  ),
  email: z.preprocess(
    blankToNull,
    z
      .string()
      .trim()
      .max(254, MESSAGES.emailInvalid)
      .regex(EMAIL_PATTERN, MESSAGES.emailInvalid)
      .transform((email) => email.toLowerCase())
      .nullable()
      .optional(),
  ),
  ens: z.preprocess(
    blankToNull,
    z
      .string()
      .trim()
      .max(255, MESSAGES.ensInvalid)
      .regex(ENS_PATTERN, MESSAGES.ensInvalid)
      .transform((ens) => ens.toLowerCase())
      .nullable()
      .optional(),
  ),
  social: socialLinksSchema.optional(),
  avatar: imagePath,
  banner: imagePath,
});
export type ProfileUpdate = z.input<typeof profileUpdateSchema>;

export const userRefSchema = z.object({
  _id: z.string().nullable(),
  address: z.string(),
  username: z.string().nullable(),
  name: z.string().nullable(),
  avatar: z.string().nullable(),
});
export type UserRef = z.infer<typeof userRefSchema>;

export const profileUserSchema = z.object({
  /** Null for an address that has never signed in. */
  _id: z.string().nullable(),
  address: z.string(),
  name: z.string().nullable(),
  username: z.string().nullable(),
  ens: z.string().nullable(),
  bio: z.string().nullable(),
  avatar: z.string().nullable(),
  banner: z.string().nullable(),
  /** Only the owner sees their own email. */
  email: z.string().nullable(),
  /** Whether the owner confirmed the email from the link mailed to it; notification mail waits for it. */
  emailVerified: z.boolean(),
  social: z.record(z.string(), z.string()),
  active: z.boolean(),
  /** When the profile was created (ISO 8601), shown as "Joined". */
  time_update: z.string().nullable(),
});
export type ProfileUser = z.infer<typeof profileUserSchema>;

export const profileResponseSchema = z.object({
  data: z.object({
    user: profileUserSchema,
    isOwner: z.boolean(),
    /** Whether the signed-in viewer follows this profile. */
    isFollowing: z.boolean(),
    /** A verified artist, as the market's record on chain says (indexed). */
    verifiedArtist: z.boolean(),
    profileOwner: userRefSchema,
    followers: z.array(userRefSchema),
    following: z.array(userRefSchema),
    followersCount: z.number().int().nonnegative(),
    followingCount: z.number().int().nonnegative(),
    /** Tokens the user created, the collections they own, tokens they hold, tokens they share in. */
    created: z.array(chainTokenItemSchema),
    collection: z.array(chainCollectionItemSchema),
    collected: z.array(chainTokenItemSchema),
    split: z.array(chainTokenItemSchema),
  }),
});
export type ProfileResponse = z.infer<typeof profileResponseSchema>;

export const profileQuerySchema = z.object({
  userkey: z.string().trim().min(1, MESSAGES.userNotFound).max(255, MESSAGES.userNotFound),
});

export const profileUpdateResponseSchema = z.object({
  message: z.string(),
  data: z.object({ user: profileUserSchema }),
});

// --- Media -----------------------------------------------------------------------------------

export const mediaUploadResponseSchema = z.object({
  message: z.string(),
  data: z.object({
    /** Gateway path of the original, e.g. `/ipfs/bafk...`. */
    path: z.string(),
    cid: z.string(),
    /** Gateway path of a webp thumbnail (at most 400 px wide). */
    thumbnail: z.string(),
    mime: z.string(),
    size: z.number().int(),
    width: z.number().int(),
    height: z.number().int(),
  }),
});
export type MediaUploadResponse = z.infer<typeof mediaUploadResponseSchema>;

// --- Follow, search, notifications -----------------------------------------------------------

export const followRequestSchema = z.object({
  // A missing or mistyped field says what is wrong with the input, not that a user is missing.
  userAddress: z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? "userAddress is required"
          : "Invalid address: userAddress must be a string",
    })
    .regex(ADDRESS_PATTERN, "Invalid address")
    .transform((address) => address.toLowerCase()),
});
export const followResponseSchema = z.object({
  data: z.object({
    following: z.boolean(),
    followersCount: z.number().int().nonnegative(),
  }),
});

export const userSearchQuerySchema = z.object({
  userKey: z.string().trim().max(100).default(""),
});
export const userSearchResponseSchema = z.object({
  data: z.object({
    users: z.array(
      z.object({
        _id: z.string(),
        username: z.string().nullable(),
        avatar: z.string().nullable(),
        address: z.string(),
      }),
    ),
  }),
});
export type UserSearchResponse = z.infer<typeof userSearchResponseSchema>;

export const notificationSchema = z.object({
  _id: z.string(),
  kind: z.string(),
  message: z.string(),
  /** Unix seconds (the web multiplies by 1000). */
  time: z.number().int(),
  seen: z.boolean(),
  /**
   * The page the notification speaks of (the item of a sale, bid, offer or listing; a new follower's profile;
   * the artist application), as an app path; null when it has none.
   */
  link: z.string().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;
export const notificationsResponseSchema = z.object({
  data: z.object({
    notificationsTemp: z.array(notificationSchema),
    numberOfNewNotif: z.number().int().nonnegative(),
  }),
});
export const notificationsSeenResponseSchema = z.object({
  data: z.object({ updated: z.number().int().nonnegative(), numberOfNewNotif: z.literal(0) }),
});

/**
 * Notification preference flags (spec section 3): the settings form's five groups (auction, fix, offer,
 * profile, favorite), the finer kinds, ENS changes, and email delivery.
 */
export const NOTIFICATION_FLAGS = [
  "auction",
  "fix",
  "offer",
  "profile",
  "favorite",
  "itemSold",
  "bidActivity",
  "successfulPurchase",
  "NewFollowerNotification",
  "newNftListing",
  "ownedItemUpdate",
  /** Easel removed the profile's ENS name (it no longer names this wallet). */
  "ens",
  /** Also send notifications by email (to the profile's email). */
  "email",
] as const;
export type NotificationFlag = (typeof NOTIFICATION_FLAGS)[number];
export type NotificationPreferences = Record<NotificationFlag, boolean>;
/** Every event flag is on by default; email delivery is opt-in. */
export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = Object.fromEntries(
  NOTIFICATION_FLAGS.map((flag) => [flag, flag !== "email"]),
) as NotificationPreferences;

/** The group (a form switch) each notification kind belongs to: it is sent only while its group is on. */
const NOTIFICATION_GROUPS: Record<string, NotificationFlag> = {
  bid: "auction",
  outbid: "auction",
  auction_won: "auction",
  auction_cancelled: "auction",
  sale: "fix",
  purchase: "fix",
  listing: "fix",
  offer: "offer",
  offer_outbid: "offer",
  offer_accepted: "offer",
  follow: "profile",
  application_approved: "profile",
  application_rejected: "profile",
  ens_removed: "profile",
  favorite: "favorite",
  // Watch alerts about favourited items (packages/common/src/feed.ts WATCH_KINDS).
  watch_listed: "favorite",
  watch_bid: "favorite",
  watch_price: "favorite",
  watch_ending: "favorite",
};

/** Whether a notification of `kind` (switched by `flag`) reaches someone with these preferences. */
export function notificationAllowed(
  stored: Partial<Record<string, boolean>> | null | undefined,
  kind: string,
  flag: NotificationFlag | undefined,
): boolean {
  const allowed = { ...DEFAULT_NOTIFICATION_PREFERENCES, ...(stored ?? {}) } as Record<string, boolean>;
  const group = NOTIFICATION_GROUPS[kind];
  return (flag === undefined || allowed[flag] !== false) && (group === undefined || allowed[group] !== false);
}

const flag = z.boolean({ error: "Must be true or false" }).optional();
export const notifAllowRequestSchema = z.strictObject(
  Object.fromEntries(NOTIFICATION_FLAGS.map((name) => [name, flag])) as Record<NotificationFlag, typeof flag>,
);
export const notifAllowResponseSchema = z.object({
  data: z.object({ notifAllow: z.record(z.string(), z.boolean()) }),
});

export const headerDataResponseSchema = z.object({
  data: z.object({
    user: z
      .object({
        _id: z.string(),
        avatar: z.string().nullable(),
        username: z.string().nullable(),
        address: z.string(),
        banner: z.string().nullable(),
        active: z.boolean(),
      })
      .nullable(),
    numberOfNewNotif: z.number().int().nonnegative(),
    /** True for addresses configured as moderators (shows the admin area link). */
    isAdmin: z.boolean(),
    notifAllow: z.record(z.string(), z.boolean()).nullable(),
  }),
});
export type HeaderData = z.infer<typeof headerDataResponseSchema>;

// --- Reports ---------------------------------------------------------------------------------

export const REPORT_TARGETS = ["profile", "collection", "item"] as const;
/** The id of each kind of report target (lowercase). */
export const REPORT_TARGET_PATTERNS: Record<(typeof REPORT_TARGETS)[number], RegExp> = {
  profile: /^0x[0-9a-f]{40}$/,
  collection: /^0x[0-9a-f]{40}$/,
  item: /^0x[0-9a-f]{40}:\d{1,78}$/,
};

export const reportRequestSchema = z
  .object({
    reason: z.enum(REPORT_REASONS, { error: MESSAGES.reasonRequired }),
    email: requiredEmail(MESSAGES.emailRequired, MESSAGES.emailInvalid),
    description: z
      .string({ error: MESSAGES.descriptionRequired })
      .trim()
      .min(1, MESSAGES.descriptionRequired)
      .min(REPORT_DESCRIPTION_MIN, MESSAGES.descriptionMin)
      .max(REPORT_DESCRIPTION_MAX, MESSAGES.descriptionMax),
    /**
     * What is reported, by id (never a link): a profile by its address, a collection by its contract
     * address, an item as `collection:tokenId`. The server also checks that it exists.
     */
    targetType: z.enum(REPORT_TARGETS, { error: MESSAGES.reportTarget }),
    targetId: z
      .string({ error: MESSAGES.reportTarget })
      .trim()
      .max(120, MESSAGES.reportTarget)
      .transform((id) => id.toLowerCase()),
  })
  .refine((report) => REPORT_TARGET_PATTERNS[report.targetType]?.test(report.targetId) ?? false, {
    message: MESSAGES.reportTarget,
    path: ["targetId"],
  });
export type ReportRequest = z.input<typeof reportRequestSchema>;
export const reportResponseSchema = z.object({
  message: z.string(),
  data: z.object({ _id: z.string() }),
});

// --- Newsletter, contact ---------------------------------------------------------------------

export const newsletterRequestSchema = z.object({
  email: requiredEmail(MESSAGES.newsletterRequired, MESSAGES.newsletterInvalid),
});
/** The signed link's values, posted by the confirmation page's button (a link opened alone confirms nothing). */
export const newsletterConfirmSchema = z.object({
  email: z.string({ error: MESSAGES.newsletterLinkIncomplete }).max(254, MESSAGES.newsletterLinkInvalid),
  expires: z.coerce.number({ error: MESSAGES.newsletterLinkIncomplete }).int(MESSAGES.newsletterLinkInvalid),
  sig: z.string({ error: MESSAGES.newsletterLinkIncomplete }).max(200, MESSAGES.newsletterLinkInvalid),
});
export type NewsletterConfirm = z.infer<typeof newsletterConfirmSchema>;
/** The signed values of a profile email's link, posted by the confirmation page's button. */
export const emailConfirmSchema = z.object({
  address: z.string({ error: MESSAGES.emailLinkIncomplete }).max(42, MESSAGES.emailLinkInvalid),
  email: z.string({ error: MESSAGES.emailLinkIncomplete }).max(254, MESSAGES.emailLinkInvalid),
  expires: z.coerce.number({ error: MESSAGES.emailLinkIncomplete }).int(MESSAGES.emailLinkInvalid),
  sig: z.string({ error: MESSAGES.emailLinkIncomplete }).max(200, MESSAGES.emailLinkInvalid),
});
export type EmailConfirm = z.infer<typeof emailConfirmSchema>;
export const messageResponseSchema = z.object({ message: z.string() });

/** One line of text: no line breaks or other control characters (they would forge lines in a mail). */
export const SINGLE_LINE = /^[^\p{Cc}\u2028\u2029]*$/u;

export const contactRequestSchema = z.object({
  name: z
    .string({ error: MESSAGES.contactName })
    .trim()
    .min(CONTACT_NAME_MIN, MESSAGES.contactName)
    .max(100, "Name must be at most 100 characters")
    .regex(SINGLE_LINE, MESSAGES.singleLine),
  email: requiredEmail(MESSAGES.emailRequired, MESSAGES.emailInvalid),
  message: z
    .string({ error: MESSAGES.contactMessageRequired })
    .trim()
    .min(1, MESSAGES.contactMessageRequired)
    .max(5000, "Message must be at most 5000 characters"),
});
export type ContactRequest = z.input<typeof contactRequestSchema>;

// --- Artist application ----------------------------------------------------------------------

export const APPLICATION_ROLES = ["artist", "artCollector", "artistFoundation"] as const;
/** How each applicant role reads on screen. */
export const APPLICATION_ROLE_LABELS: Record<(typeof APPLICATION_ROLES)[number], string> = {
  artist: "Artist",
  artCollector: "Art Collector",
  artistFoundation: "Artist Foundation",
};
export const APPLICATION_STATUSES = ["pending", "approved", "rejected"] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

export const artistApplicationRequestSchema = z.object({
  profileURL: z
    .string({ error: MESSAGES.profileUrlRequired })
    .trim()
    .min(1, MESSAGES.profileUrlRequired)
    .pipe(httpUrlSchema),
  name: z
    .string({ error: MESSAGES.applicationNameRequired })
    .trim()
    .min(1, MESSAGES.applicationNameRequired)
    .max(APPLICATION_NAME_MAX, MESSAGES.applicationNameMax),
  email: requiredEmail(
    MESSAGES.applicationEmailRequired,
    MESSAGES.emailInvalid,
    APPLICATION_EMAIL_MAX,
    MESSAGES.applicationEmailMax,
  ),
  phone: z
    .string({ error: MESSAGES.phoneRequired })
    .trim()
    .regex(/^\+?[0-9][0-9 ()-]{5,24}$/, MESSAGES.phoneRequired),
  role: z.enum(APPLICATION_ROLES, { error: MESSAGES.roleRequired }),
  portfolio: optionalLink,
  description: z.preprocess(
    blankToNull,
    z.string().max(APPLICATION_DESCRIPTION_MAX, MESSAGES.applicationDescriptionMax).nullable().optional(),
  ),
  rights: z.literal(true, { error: MESSAGES.agreementRequired }),
  terms: z.literal(true, { error: MESSAGES.agreementRequired }),
});
export type ArtistApplicationRequest = z.input<typeof artistApplicationRequestSchema>;

export const artistApplicationSchema = z.object({
  _id: z.string(),
  address: z.string(),
  profileURL: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  role: z.enum(APPLICATION_ROLES),
  portfolio: z.string().nullable(),
  description: z.string().nullable(),
  status: z.enum(APPLICATION_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
  reviewedBy: z.string().nullable(),
  reviewedAt: z.string().nullable(),
});
export type ArtistApplication = z.infer<typeof artistApplicationSchema>;
export const artistApplicationResponseSchema = z.object({
  message: z.string().optional(),
  data: z.object({ application: artistApplicationSchema.nullable() }),
});

// --- Moderation ------------------------------------------------------------------------------

export const REPORT_STATUSES = ["open", "resolved", "dismissed"] as const;
/**
 * A person a row names (an activity's from and to, an offer's buyer, an auction's top bidder, a report's
 * reporter): the address with the names of its profile, joined in the query that reads the row, so a list
 * of people costs no request per person. Read it with `displayName`.
 */
export const personRefSchema = z.object({
  address: z.string(),
  name: z.string().nullable(),
  username: z.string().nullable(),
  ens: z.string().nullable(),
});
export type PersonRef = z.infer<typeof personRefSchema>;

export const reportSchema = z.object({
  _id: z.string(),
  reporter: z.string(),
  /** The reporter, and the reported user when the report is about one, with their profiles' names. */
  reporterPerson: personRefSchema,
  targetPerson: personRefSchema.nullable(),
  reason: z.enum(REPORT_REASONS),
  email: z.string(),
  description: z.string(),
  targetType: z.enum(REPORT_TARGETS),
  targetId: z.string(),
  status: z.enum(REPORT_STATUSES),
  createdAt: z.string(),
  reviewedBy: z.string().nullable(),
  reviewedAt: z.string().nullable(),
});
export type Report = z.infer<typeof reportSchema>;
export const adminReportsResponseSchema = z.object({ data: z.object({ reports: z.array(reportSchema) }) });
export const adminReportUpdateSchema = z.object({
  status: z.enum(["resolved", "dismissed"], { error: "Status must be resolved or dismissed" }),
});
export const adminApplicationsResponseSchema = z.object({
  data: z.object({ applications: z.array(artistApplicationSchema) }),
});
export const adminUserSchema = z.object({
  _id: z.string(),
  address: z.string(),
  username: z.string().nullable(),
  name: z.string().nullable(),
  /** The profile's ENS name (the user list names people as everywhere else: name, else ENS, else address). */
  ens: z.string().nullable(),
  avatar: z.string().nullable(),
  active: z.boolean(),
  /** Lazy collections the user may create (0: the standard type only). */
  lazyCollections: z.number().int().nonnegative(),
  createdAt: z.string(),
});
/** `PUT /api/admin/users/:id/permission`: how many lazy collections the user may own. */
export const adminPermissionSchema = z.object({
  lazyCollections: z.number().int().min(0, "Give 0 or more.").max(100, "Give 100 or fewer."),
});
export const adminUsersQuerySchema = z.object({
  q: z.string().trim().max(100).default(""),
  page: z.coerce.number().int().min(1).default(1),
});
export const adminUsersResponseSchema = z.object({
  data: z.object({ users: z.array(adminUserSchema), page: z.number().int(), lastPage: z.boolean() }),
});
export const adminUserResponseSchema = z.object({ data: z.object({ user: adminUserSchema }) });
export const ADMIN_USERS_PAGE_SIZE = 50;

// --- Response types (what the web reads; inferred, never re-declared) ---------------------------
export type ProfileUpdateResponse = z.infer<typeof profileUpdateResponseSchema>;
export type FollowResponse = z.infer<typeof followResponseSchema>;
export type NotificationsResponse = z.infer<typeof notificationsResponseSchema>;
export type ArtistApplicationResponse = z.infer<typeof artistApplicationResponseSchema>;
export type AdminReportsResponse = z.infer<typeof adminReportsResponseSchema>;
export type AdminApplicationsResponse = z.infer<typeof adminApplicationsResponseSchema>;
export type AdminUser = z.infer<typeof adminUserSchema>;
export type AdminUsersResponse = z.infer<typeof adminUsersResponseSchema>;
export type MessageResponse = z.infer<typeof messageResponseSchema>;
