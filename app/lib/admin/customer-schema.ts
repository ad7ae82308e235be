/** The ban form's zod schema, enforced on the server (server/customers/ban.ts); the page imports only customer-labels.ts. */
import { z } from "zod";

import { BAN_REASON_MAX } from "./customer-labels.ts";
import { CONTROL_IN_TEXT } from "../control-characters.ts";

export const banSchema = z.object({
  reason: z
    .string({ error: "Enter the reason for the ban." })
    .trim()
    .min(1, { error: "Enter the reason for the ban." })
    .max(BAN_REASON_MAX, { error: `The reason must be ${BAN_REASON_MAX} characters or fewer.` })
    .refine((v) => !CONTROL_IN_TEXT.test(v), { error: "The reason contains characters that aren't allowed." }),
});
