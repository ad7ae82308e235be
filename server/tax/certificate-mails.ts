import { renderMail } from "../mail/templates.ts";
import type { OutgoingMail } from "../mail/queue.ts";

/** What a certificate's mails say of it: the state's name, its number and its last day. */
export interface CertificateMailFacts {
  to: string;
  companyName: string;
  stateName: string;
  number: string;
  expiresOn: string;
  link: string;
}

const LINK_LABEL = "See your tax exemptions";

export function certificateVerifiedMail(c: CertificateMailFacts): OutgoingMail {
  const mail = renderMail({
    heading: `Exemption certificate verified: ${c.stateName}`,
    paragraphs: [
      `${c.companyName}'s exemption certificate ${c.number} for ${c.stateName} is verified.`,
      `Orders delivered to ${c.stateName} carry no sales tax until it expires after ${c.expiresOn}.`,
    ],
    action: { label: LINK_LABEL, url: c.link },
  });
  return { to: c.to, subject: `Your exemption certificate for ${c.stateName} is verified`, ...mail };
}

export function certificateRejectedMail(c: CertificateMailFacts & { reason: string }): OutgoingMail {
  const mail = renderMail({
    heading: `Exemption certificate not accepted: ${c.stateName}`,
    paragraphs: [
      `We could not accept ${c.companyName}'s exemption certificate ${c.number} for ${c.stateName}.`,
      `Our reason: ${c.reason}`,
      `Orders delivered to ${c.stateName} carry sales tax until a certificate is verified. You can upload a new one.`,
    ],
    action: { label: LINK_LABEL, url: c.link },
  });
  return { to: c.to, subject: `Your exemption certificate for ${c.stateName} was not accepted`, ...mail };
}

export function certificateExpiringMail(c: CertificateMailFacts): OutgoingMail {
  const mail = renderMail({
    heading: `Exemption certificate expiring: ${c.stateName}`,
    paragraphs: [
      `${c.companyName}'s exemption certificate ${c.number} for ${c.stateName} expires after ${c.expiresOn}.`,
      `From the next day, orders delivered to ${c.stateName} carry sales tax unless you upload a renewed certificate and we verify it.`,
    ],
    action: { label: LINK_LABEL, url: c.link },
  });
  return { to: c.to, subject: `Your exemption certificate for ${c.stateName} expires on ${c.expiresOn}`, ...mail };
}
