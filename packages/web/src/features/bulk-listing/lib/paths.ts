/** Where "List several" lives: the seller's works in `collection`, or all of them. */
export const listSeveralPath = (collection?: string | null) =>
  collection ? `/List/several?collection=${encodeURIComponent(collection.toLowerCase())}` : "/List/several";
