/** Help menu (spec: How it Works?, About, Creating -> /applyToJoin, Collecting, FAQ). */
export const HELP_LINKS = [
  { label: "How it Works?", to: "/help" },
  { label: "About", to: "/aboutUs" },
  { label: "Creating", to: "/applyToJoin" },
  { label: "Collecting", to: "/ExploreNFTs" },
  { label: "FAQ", to: "/FAQ" },
] as const;

/** Footer links (spec: FAQs, Contact, Help Center, About, Privacy, Terms of Service), and the market's activity. */
export const FOOTER_LINKS = [
  { label: "Activity", to: "/activity" },
  { label: "FAQs", to: "/FAQ" },
  { label: "Contact", to: "/contactUs" },
  { label: "Help Center", to: "/help" },
  { label: "About", to: "/aboutUs" },
  { label: "Privacy", to: "/privacyAndPolicy" },
  { label: "Terms of Service", to: "/TermsOfServices" },
] as const;

/** The four social networks of the footer. Set the real Easel accounts here. */
export const SOCIAL_LINKS = [
  { label: "Instagram", href: "https://www.instagram.com/easel.art" },
  { label: "X (Twitter)", href: "https://x.com/easelart" },
  { label: "Discord", href: "https://discord.gg/easelart" },
  { label: "LinkedIn", href: "https://www.linkedin.com/company/easelart" },
] as const;

export const SEARCH_PLACEHOLDER = "Search items, collections and profiles";
