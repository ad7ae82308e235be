/**
 * What went wrong, in the domain's words. The domain raises one of the typed errors below; the
 * HTTP status each kind answers with is decided here and nowhere else (HTTP_STATUS).
 */
export type ErrorKind =
  | "invalid"
  | "not_allowed"
  | "not_found"
  | "conflict"
  | "out_of_stock"
  | "unprocessable"
  | "too_large"
  | "too_many"
  | "unavailable";

const HTTP_STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  not_allowed: 403,
  not_found: 404,
  conflict: 409,
  out_of_stock: 409,
  too_large: 413,
  unprocessable: 422,
  too_many: 429,
  unavailable: 503,
};

/** A failure the shopper or staff member can understand: a kind, a stable code and a readable message. */
export class DomainError extends Error {
  readonly kind: ErrorKind;
  readonly code: string;
  constructor(kind: ErrorKind, code: string, message: string) {
    super(message);
    this.name = "DomainError";
    this.kind = kind;
    this.code = code;
  }
  /** The HTTP status this error answers with (the one mapping, HTTP_STATUS). */
  get status(): number {
    return HTTP_STATUS[this.kind];
  }
}

/** A DomainError class whose errors are all of one kind: `new NotFoundError(code, message)`. */
function errorOfKind(kind: ErrorKind) {
  return class extends DomainError {
    constructor(code: string, message: string) {
      super(kind, code, message);
    }
  };
}

/** The input breaks a rule (a 400). */
export const InvalidError = errorOfKind("invalid");
/** The actor may not do this (a 403). */
export const NotAllowedError = errorOfKind("not_allowed");
/** The thing doesn't exist, or isn't this actor's to see (a 404). */
export const NotFoundError = errorOfKind("not_found");
/** The thing's state doesn't allow this now, or someone changed it first (a 409). */
export const ConflictError = errorOfKind("conflict");
/** Not enough stock for what was asked (a 409). */
export const OutOfStockError = errorOfKind("out_of_stock");
/** Well-formed, but can't be carried out as asked (a 422). */
export const UnprocessableError = errorOfKind("unprocessable");
/** The upload or file is over its size limit (a 413). */
export const TooLargeError = errorOfKind("too_large");
/** Too many attempts or orders in a window (a 429). */
export const TooManyError = errorOfKind("too_many");
/** A service the request needs is off or down (a 503). */
export const UnavailableError = errorOfKind("unavailable");

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}
