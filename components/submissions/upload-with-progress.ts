import { ApiClientError } from "@/components/api/client";

/**
 * Sends a file as the raw request body with XMLHttpRequest (fetch reports no upload progress),
 * calling `onProgress` with the fraction sent; answers the JSON body, or throws the API's error
 * as `fetchJson` does.
 */
export function uploadFileWithProgress<T>(
  url: string,
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.setRequestHeader("content-type", "application/octet-stream");
    xhr.responseType = "json";
    xhr.upload.addEventListener("progress", (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    });
    xhr.addEventListener("load", () => {
      const body = xhr.response as { error?: { code?: string; message?: string; details?: [] } } | null;
      if (xhr.status >= 200 && xhr.status < 300) return resolve(body as T);
      const error = body?.error;
      reject(
        new ApiClientError(
          xhr.status,
          (error?.code as ApiClientError["code"]) ?? "internal",
          error?.message ?? `Upload failed (${xhr.status})`,
          error?.details ?? [],
        ),
      );
    });
    xhr.addEventListener("error", () =>
      reject(new ApiClientError(0, "network", "The upload was interrupted; check your connection")),
    );
    xhr.addEventListener("abort", () => reject(new ApiClientError(0, "network", "The upload was cancelled")));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}
