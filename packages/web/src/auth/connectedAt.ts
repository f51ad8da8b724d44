import { ACCOUNT_CHANGE_COUNTDOWN_AFTER_CONNECT_S, ACCOUNT_CHANGE_COUNTDOWN_S } from "@easel/common";

/** How long after connecting a wallet change still counts as "right after connecting". */
const JUST_CONNECTED_WINDOW_MS = 15_000;

let lastConnectedAt = 0;

/** Called when a wallet connects or a sign-in completes. */
export function markConnected(now = Date.now()): void {
  lastConnectedAt = now;
}

/** 8 s right after connecting (wallets emit bursts of events then), 5 s otherwise. */
export function countdownSeconds(now = Date.now()): number {
  return now - lastConnectedAt < JUST_CONNECTED_WINDOW_MS
    ? ACCOUNT_CHANGE_COUNTDOWN_AFTER_CONNECT_S
    : ACCOUNT_CHANGE_COUNTDOWN_S;
}
