let sentFrame = "";

/** The frame the page arrived with (main.tsx keeps it before the app takes over its container). */
export function setSentFrame(html: string) {
  sentFrame = html;
}

/** The markup of the frame the page arrived with ("" when none was kept). */
export const sentFrameHtml = () => sentFrame;
