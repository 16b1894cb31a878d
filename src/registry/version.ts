// Data versions: dotted three-part numbers, compared numerically and bumped by `data:freeze`.

export const BUMPS = ['patch', 'minor', 'major'] as const;
export type Bump = (typeof BUMPS)[number];

/** Splits a dotted three-part version into numbers (assumes VersionSchema already passed). */
export function parseVersion(version: string): [number, number, number] {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  return [major, minor, patch];
}

/** Numeric comparison of dotted three-part versions: negative, 0 or positive (so 1.10.0 > 1.9.0). */
export function compareVersions(a: string, b: string): number {
  const pa = parseVersion(a);
  const pb = parseVersion(b);
  for (let i = 0; i < 3; i++) {
    const d = pa[i]! - pb[i]!;
    if (d !== 0) return d;
  }
  return 0;
}

/** The next version for a bump: patch 1.2.3 → 1.2.4, minor → 1.3.0, major → 2.0.0. */
export function bumpVersion(version: string, bump: Bump): string {
  const [major, minor, patch] = parseVersion(version);
  if (bump === 'major') return `${major + 1}.0.0`;
  if (bump === 'minor') return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}
