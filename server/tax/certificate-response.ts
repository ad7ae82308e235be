import { PERSONAL_CACHE_CONTROL } from "../../app/lib/cache-control.ts";

const EXTENSION: Record<string, string> = {
  "application/pdf": "pdf",
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
};

/** A certificate's file as a download: never shown inline, never sniffed, never cached. */
export function certificateResponse(file: { bytes: Buffer; type: string; state: string }, id: number): Response {
  return new Response(new Uint8Array(file.bytes), {
    headers: {
      "Content-Type": file.type,
      "Content-Disposition": `attachment; filename="exemption-${file.state.toLowerCase()}-${id}.${EXTENSION[file.type] ?? "bin"}"`,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": PERSONAL_CACHE_CONTROL,
    },
  });
}
