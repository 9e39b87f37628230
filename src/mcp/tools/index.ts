// Every tool the server offers, in the order tools/list shows them (at most twelve).
import type { Tool } from '../tool';
import { READ_TOOLS } from './read';
import { WRITE_TOOLS } from './write';

export const TOOLS: Tool[] = [...READ_TOOLS, ...WRITE_TOOLS];
