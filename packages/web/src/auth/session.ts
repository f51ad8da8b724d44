import type { SessionResponse } from "@easel/common";
import { useQuery } from "@tanstack/react-query";
import { ApiError, apiFetch } from "../api/client.ts";

export const SESSION_QUERY_KEY = ["auth", "session"] as const;

export const SIGNED_OUT: SessionResponse = { session: null, profile: null, numberOfNewNotif: 0 };

/** Reads the server session (httpOnly cookie). A 401 means signed out, not an error. */
export async function fetchSession(): Promise<SessionResponse> {
  try {
    return await apiFetch<SessionResponse>("/api/auth/session");
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return SIGNED_OUT;
    throw error;
  }
}

/** The signed-in state of the app: the only source of truth is `GET /api/auth/session`. */
export function useSession() {
  const query = useQuery({
    queryKey: SESSION_QUERY_KEY,
    queryFn: fetchSession,
    staleTime: 60_000,
    retry: false,
  });
  const data = query.data ?? SIGNED_OUT;
  return {
    isPending: query.isPending,
    isError: query.isError,
    session: data.session,
    profile: data.profile,
    numberOfNewNotif: data.numberOfNewNotif,
    signedIn: data.session !== null,
  };
}
