/** An error a route raises: fatal ones show the error page, status 404 shows the Not Found screen (spec §2, §8). */
export class RouteError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fatal = true,
  ) {
    super(message);
    this.name = 'RouteError';
  }
}

/** The fatal 404 of a failed validity check: `Page Not Found: {path}`. */
export const pageNotFound = (path: string) => new RouteError(404, `Page Not Found: ${path}`);

export function isNotFoundError(error: unknown): boolean {
  return error instanceof RouteError && error.status === 404;
}
