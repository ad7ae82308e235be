/** The ban form's zod schema, enforced on the server (server/customers/ban.ts); the page imports only customer-labels.ts. */
import { z } from "zod";

import { BAN_REASON_MAX } from "./customer-labels.ts";

const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export const banSchema = z.object({
  reason: z
    .string({ error: "Enter the reason for the ban." })
    .trim()
    .min(1, { error: "Enter the reason for the ban." })
    .max(BAN_REASON_MAX, { error: `The reason must be ${BAN_REASON_MAX} characters or fewer.` })
    .refine((v) => !CONTROL.test(v), { error: "The reason contains characters that aren't allowed." }),
});
export type BanInput = z.infer<typeof banSchema>;
