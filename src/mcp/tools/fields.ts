// Argument and result pieces several tools share.
import { z } from 'zod';
import { sessionIdProblem } from '../../store';
import { refused, type ToolAnswer } from '../tool';

export const session = z.string().describe('session id');

/** The CLI's grammar, checked before anything is read: exit 2 with the CLI's own words. */
export function badSession(id: string): ToolAnswer | null {
  const problem = sessionIdProblem(id);
  return problem === null ? null : refused(2, [problem]);
}

export const limit = (max: number, fallback: number) =>
  z.number().int().min(1).max(max).default(fallback).describe(`page size (max ${max})`);

export const cursor = z.string().optional().describe('next_cursor from the previous page');

/** An open object: the tools pin the keys a client needs and let the payload carry the rest. */
export const payload = <T extends z.core.$ZodLooseShape>(shape: T) => z.looseObject(shape);
