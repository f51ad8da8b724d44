/**
 * The accounts side's limits, messages and text patterns: plain values without zod, so the web app's
 * first load (header, footer, toasts) can use them without loading the schemas that check them.
 */
/** Profile images must be under 10 MB (10,000,000 bytes); the old tooltip's 50MB was wrong. */
export const MAX_UPLOAD_BYTES = 10_000_000;
export const PROFILE_NAME_MAX = 30;
export const PROFILE_USERNAME_MAX = 30;
export const PROFILE_BIO_MAX = 150;
export const REPORT_DESCRIPTION_MIN = 10;
export const REPORT_DESCRIPTION_MAX = 500;
export const APPLICATION_NAME_MAX = 50;
export const APPLICATION_EMAIL_MAX = 50;
export const APPLICATION_DESCRIPTION_MAX = 1500;
export const CONTACT_NAME_MIN = 3;
/** The user search answers at most this many users. */
export const USER_SEARCH_LIMIT = 10;

export const MESSAGES = {
  singleLine: "Use one line, without line breaks or control characters.",
  fileTooLarge: "File Must be less than 10MB",
  imageUploaded: "Image Uploaded Successfully",
  imageType: "Only PNG, JPEG, GIF and WebP images are allowed.",
  imageRequired: "Please choose an image to upload.",
  profileUpdated: "Profile updated successfully.",
  // The spec shows 'username must be maximum 30 characters' under the display name too: a copy slip
  // in the old form. The display name says "name"; the username keeps the spec's words.
  nameMax: "name must be maximum 30 characters",
  usernameMax: "username must be maximum 30 characters",
  bioMax: "bio must be maximum 150 characters",
  englishOnly: "Only English characters are allowed",
  usernamePattern: "username may contain only English letters, digits and underscores",
  usernameAddressLike: "username must not start with 0x",
  usernameTaken: "This username is already taken.",
  nameReserved: "This name is reserved for Easel's team.",
  ensInvalid: "Invalid ENS name",
  ensTaken: "This ENS name is already used by another profile.",
  ensUnavailable: "ENS names cannot be checked on this network.",
  ensNotYours: "This ENS name does not resolve to your wallet, or it is not your wallet's primary name.",
  ensCheckFailed: "The ENS name could not be checked right now. Please try again.",
  linkInvalid: "Must be a link starting with http:// or https://",
  imagePath: "Upload the image first",
  emailRequired: "Email is required.",
  emailInvalid: "Invalid email address",
  emailConfirmSent: "We sent a confirmation link to your email. Open it to receive notifications by email.",
  emailConfirmWait: "We sent a link less than a minute ago. Please check your inbox.",
  emailConfirmLimit: "Too many confirmation mails went to this address today. Please try again tomorrow.",
  emailNotSet: "Add an email to your profile first.",
  emailAlreadyConfirmed: "Your email is already confirmed.",
  emailConfirmed: "Your email is confirmed.",
  emailLinkInvalid: "This confirmation link is invalid or has expired.",
  emailLinkIncomplete:
    "This confirmation link is incomplete. Open the whole link from the mail, or ask for a new one in Edit Profile.",
  reasonRequired: "Please, select a reason.",
  descriptionRequired: "Description is required",
  descriptionMin: "description must be at least 10 characters.",
  descriptionMax: "description must be 500 characters maximum.",
  reportTarget: "Tell us what you are reporting.",
  reportOwn: "You cannot report yourself or your own collection.",
  reportRegistered:
    "Your report has been registered. We will follow and check it and take the necessary action.",
  newsletterRequired: "Required",
  newsletterInvalid: "invalid email address",
  newsletterThanks: "Thanks for Subscribing. Please check your email to confirm your subscription.",
  newsletterConfirmed: "Your subscription is confirmed.",
  newsletterLinkInvalid: "This confirmation link is invalid or has expired.",
  newsletterLinkIncomplete:
    "This confirmation link is incomplete. Open the whole link from the mail, or subscribe again below.",
  contactName: "Name must be atleast 3 characters",
  contactMessageRequired: "Message is required",
  contactSent: "Thank you! Your message has been sent.",
  profileUrlRequired: "ProfileURL Is Required",
  applicationNameRequired: "Name Is Required",
  applicationNameMax: "Name Must Be maximum 50 Character",
  applicationEmailRequired: "Email Is Required",
  applicationEmailMax: "Email Must Be maximum 50 Character",
  applicationDescriptionMax: "Description Must Be maximum 1500 Character",
  agreementRequired: "It Is Required!",
  phoneRequired: "Enter your number",
  roleRequired: "Select your role",
  applicationThanks: "Thank you! we will be in touch soon.",
  applicationAlreadyApproved: "Your application has already been approved.",
  followSelf: "You cannot follow yourself.",
  userNotFound: "User not found.",
  notRegistered: "you are not registered!",
  signInRequired: "Please connect your wallet and sign in.",
  adminOnly: "Only Easel's moderators can do this.",
} as const;

/**
 * The spec's "English-characters pattern" for name, username and bio: printable ASCII (English
 * letters, digits, punctuation, spaces) plus line breaks in the bio. Text is stored as typed and only
 * ever returned as JSON, so characters such as `<` are harmless here.
 */
export const ENGLISH_TEXT = /^[\x20-\x7E]*$/;
export const ENGLISH_MULTILINE_TEXT = /^[\x20-\x7E\r\n\t]*$/;
export const USERNAME_PATTERN = /^[A-Za-z0-9_]+$/;
/** An ENS-style name: dot-separated labels of letters, digits and hyphens, e.g. `alice.eth`. */
export const ENS_PATTERN = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/i;
/** A path on our IPFS gateway, as the media uploader returns it. */
export const IPFS_PATH_PATTERN = /^\/ipfs\/[a-z2-7]{20,120}$/;
