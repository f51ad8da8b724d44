/** The six share targets of the spec's share menus (profile 'more' menu and the item's share menu). */
export function shareTargets(url: string, text: string) {
  const u = encodeURIComponent(url);
  const t = encodeURIComponent(text);
  return [
    { label: "Share by email", href: `mailto:?subject=${t}&body=${t}%20${u}` },
    { label: "Share on Facebook", href: `https://www.facebook.com/sharer/sharer.php?u=${u}` },
    { label: "Share on Twitter", href: `https://twitter.com/intent/tweet?text=${t}&url=${u}` },
    { label: "Share on LinkedIn", href: `https://www.linkedin.com/sharing/share-offsite/?url=${u}` },
    { label: "Share on Telegram", href: `https://t.me/share/url?url=${u}&text=${t}` },
    { label: "Share on WhatsApp", href: `https://wa.me/?text=${t}%20${u}` },
  ];
}
