import type { MediaUploadResponse } from "@easel/common";
import { MAX_UPLOAD_BYTES, MESSAGES } from "@easel/common";
import { ApiError } from "./client.ts";

/** POST /api/profile/media_uploader with a progress percentage. Files over 10 MB are refused before sending. */
export function uploadMedia(
  file: Blob,
  onProgress: (percent: number) => void,
  fileName = "image",
): Promise<MediaUploadResponse["data"]> {
  if (file.size >= MAX_UPLOAD_BYTES) {
    return Promise.reject(
      new ApiError(400, "file_too_large", MESSAGES.fileTooLarge, { file: MESSAGES.fileTooLarge }),
    );
  }
  const form = new FormData();
  form.append("file", file, fileName);
  return postForm<MediaUploadResponse>("/api/profile/media_uploader", form, onProgress).then((r) => r.data);
}

/**
 * POSTs a multipart form with XMLHttpRequest, whose upload events give a progress percentage (fetch has
 * none). Errors arrive as `ApiError`s with the server's message and field errors, like `apiFetch`'s.
 */
export function postForm<T>(path: string, form: FormData, onProgress: (percent: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    xhr.withCredentials = true;
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0)
        onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onerror = () =>
      reject(new ApiError(0, "NETWORK_ERROR", "The Easel server cannot be reached. Check your connection."));
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(100);
        resolve(body as T);
        return;
      }
      const error = (body as { error?: { code?: string; message?: string; fields?: Record<string, string> } })
        ?.error;
      reject(
        new ApiError(
          xhr.status,
          error?.code ?? `HTTP_${xhr.status}`,
          error?.message ?? `The server answered ${xhr.status}`,
          error?.fields,
        ),
      );
    };
    xhr.send(form);
  });
}
