/** The reply form's zod schema, enforced on the server (server/contact/inbox.ts); pages import message-constants.ts only. */
import { z } from "zod";

import { REPLY_MAX } from "./message-constants.ts";
import { formatCount } from "../numbers.ts";
import { NUL } from "../control-characters.ts";

export * from "./message-constants.ts";

export const replySchema = z.object({
  reply: z
    .string({ error: "Write your reply." })
    .trim()
    .min(1, { error: "Write your reply." })
    .max(REPLY_MAX, { error: `The reply must be ${formatCount(REPLY_MAX)} characters or fewer.` })
    .refine((v) => !NUL.test(v), { error: "The reply contains characters that aren't allowed." }),
  /** replied_at as the page showed it ("" when never replied): two replies at once can't both go out. */
  seen: z.string().max(40).default(""),
});
