// The quick fixes for contract findings, keyed on the finding's code, offered only where the
// right edit is clear. Each fix is the whole new text; the provider turns it into a minimal edit.
// No `vscode` here: findings and text in, titles and texts out.
import * as l10n from '@vscode/l10n';
import { findNodeAtLocation, getNodeValue, parseTree, type FormattingOptions, type Node } from 'jsonc-parser';
import { DIRECTIONS } from '../../engine/types';
import { contractFieldBlank, dimensionKeyBlank } from './contractSkeleton';
import { addJsonMembers, setJsonValue, type JsonPath } from './jsonTextEdits';

export interface FixableFinding {
  readonly code: string;
  readonly path: readonly (string | number)[];
}

export interface ContractFix {
  readonly title: string;
  readonly newText: string;
  /** The fix to apply with "Fix All" / the lightbulb's first entry. */
  readonly preferred: boolean;
}

/** The fixes for `finding`; `all` is every finding of the same text (a "missing" fix adds them together). */
export function fixesFor(
  text: string,
  finding: FixableFinding,
  all: readonly FixableFinding[],
  format: FormattingOptions,
): ContractFix[] {
  const tree = parseTree(text);
  if (!tree) return [];
  const path = [...finding.path];
  switch (finding.code) {
    case 'direction-disagrees':
    case 'bad-direction':
      return directionFixes(text, tree, path, format);
    case 'target-equals-baseline':
      return [
        {
          title: l10n.t('Declare "must_not_regress": true (a line to hold, not a number to move)'),
          newText: setJsonValue(text, [...path.slice(0, -1), 'must_not_regress'], true, format),
          preferred: true,
        },
      ];
    case 'unknown-field':
    case 'unknown-key':
      return [
        {
          title: l10n.t('Remove the unknown key {0}', JSON.stringify(path[path.length - 1])),
          newText: setJsonValue(text, path, undefined, format),
          preferred: true,
        },
      ];
    case 'missing-field':
    case 'missing-key':
      return [missingFix(text, finding, all, format)];
    default:
      return [];
  }
}

/** The direction word that agrees with baseline → target, when both are numbers that differ. */
function agreeingDirection(tree: Node, dimensionPath: JsonPath): string | undefined {
  const number = (key: string) => {
    const node = findNodeAtLocation(tree, [...dimensionPath, key]);
    const value: unknown = node ? getNodeValue(node) : undefined;
    return typeof value === 'number' ? value : undefined;
  };
  const baseline = number('baseline');
  const target = number('target');
  if (baseline === undefined || target === undefined || baseline === target) return undefined;
  return target > baseline ? 'higher-is-better' : 'lower-is-better';
}

function directionFixes(text: string, tree: Node, path: JsonPath, format: FormattingOptions): ContractFix[] {
  const agreeing = agreeingDirection(tree, path.slice(0, -1));
  const words = agreeing ? [agreeing] : [...DIRECTIONS];
  return words.map((word) => ({
    title: agreeing
      ? word === 'higher-is-better'
        ? l10n.t('Change the direction to "{0}" (the target rises above the baseline)', word)
        : l10n.t('Change the direction to "{0}" (the target falls below the baseline)', word)
      : l10n.t('Change the direction to "{0}"', word),
    newText: setJsonValue(text, path, word, format),
    preferred: agreeing !== undefined,
  }));
}

/** Adds every key missing from the same object at once, each with a blank value to fill in. */
function missingFix(
  text: string,
  finding: FixableFinding,
  all: readonly FixableFinding[],
  format: FormattingOptions,
): ContractFix {
  const objectPath = finding.path.slice(0, -1);
  const samePlace = (f: FixableFinding) =>
    f.code === finding.code &&
    f.path.length === finding.path.length &&
    objectPath.every((part, i) => f.path[i] === part);
  const keys = all.filter(samePlace).map((f) => String(f.path[f.path.length - 1]));
  const blank = finding.code === 'missing-field' ? contractFieldBlank : dimensionKeyBlank;
  const field = finding.code === 'missing-field';
  return {
    title:
      keys.length === 1
        ? field
          ? l10n.t('Add the missing field "{0}" (blank, to fill in)', keys[0]!)
          : l10n.t('Add the missing dimension key "{0}" (blank, to fill in)', keys[0]!)
        : field
          ? l10n.t('Add the {0} missing fields as a blank skeleton', keys.length)
          : l10n.t('Add the {0} missing dimension keys as a blank skeleton', keys.length),
    newText: addJsonMembers(
      text,
      [...objectPath],
      keys.map((key) => [key, blank(key)]),
      format,
    ),
    preferred: true,
  };
}
