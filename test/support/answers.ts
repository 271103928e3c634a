// What every answer of a route must be, as the unit tests of the pipeline and of each route check
// it: the protective headers, a JSON success, and docs/api.md's Error object.
import { expect } from 'vitest';
import type { HttpResponse } from '#lib/http/types.ts';
import { headerOf } from './headers.ts';

/** Every answer, success or error: per-caller data that no cache keeps and no browser sniffs. */
export const expectProtectiveHeaders = (response: HttpResponse) => {
  expect(headerOf(response, 'Cache-Control')).toBe('no-store');
  expect(headerOf(response, 'X-Content-Type-Options')).toBe('nosniff');
};

/** A 200 with exactly `body` as JSON. */
export const expectSuccess = (response: HttpResponse, body: unknown) => {
  expect(response.statusCode).toBe(200);
  expect(headerOf(response, 'Content-Type')).toBe('application/json');
  expectProtectiveHeaders(response);
  expect(JSON.parse(response.body ?? '')).toStrictEqual(body);
};

/**
 * The Error object of docs/api.md for `status`, showing none of `secrets` (tokens) anywhere in the
 * response; returns its message.
 */
export const expectError = (
  response: HttpResponse,
  status: number,
  secrets: readonly string[],
): string => {
  expect(response.statusCode).toBe(status);
  expect(headerOf(response, 'Content-Type')).toBe('application/json');
  expectProtectiveHeaders(response);
  const body = JSON.parse(response.body ?? '') as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['error', 'message']);
  expect(body.error).toBe(status);
  expect(typeof body.message).toBe('string');
  const message = String(body.message);
  expect(message.trim()).not.toBe('');
  const whole = JSON.stringify(response);
  for (const secret of secrets) expect(whole).not.toContain(secret);
  return message;
};
