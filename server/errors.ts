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

/** The input breaks a rule (a 400). */
export class InvalidError extends DomainError {
  constructor(code: string, message: string) {
    super("invalid", code, message);
  }
}
/** The actor may not do this (a 403). */
export class NotAllowedError extends DomainError {
  constructor(code: string, message: string) {
    super("not_allowed", code, message);
  }
}
/** The thing doesn't exist, or isn't this actor's to see (a 404). */
export class NotFoundError extends DomainError {
  constructor(code: string, message: string) {
    super("not_found", code, message);
  }
}
/** The thing's state doesn't allow this now, or someone changed it first (a 409). */
export class ConflictError extends DomainError {
  constructor(code: string, message: string) {
    super("conflict", code, message);
  }
}
/** Not enough stock for what was asked (a 409). */
export class OutOfStockError extends DomainError {
  constructor(code: string, message: string) {
    super("out_of_stock", code, message);
  }
}
/** Well-formed, but can't be carried out as asked (a 422). */
export class UnprocessableError extends DomainError {
  constructor(code: string, message: string) {
    super("unprocessable", code, message);
  }
}
/** The upload or file is over its size limit (a 413). */
export class TooLargeError extends DomainError {
  constructor(code: string, message: string) {
    super("too_large", code, message);
  }
}
/** Too many attempts or orders in a window (a 429). */
export class TooManyError extends DomainError {
  constructor(code: string, message: string) {
    super("too_many", code, message);
  }
}
/** A service the request needs is off or down (a 503). */
export class UnavailableError extends DomainError {
  constructor(code: string, message: string) {
    super("unavailable", code, message);
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}
