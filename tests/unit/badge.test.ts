// The RTP badge (src/emit/badge.ts): the stated figure with two decimals, a title, everything escaped.
import { describe, expect, it } from 'vitest';
import { badgeFigure, renderBadge } from '../../src/emit/badge.ts';

describe('RTP badge', () => {
  it('shows the provider-stated RTP with two decimals and names the game in its title', () => {
    const svg = renderBadge({ canonical_name: 'Book of Dead', provider_display: "Play'n GO", stated_rtp: 96.2 });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" ')).toBe(true);
    expect(svg).toContain('role="img" aria-label="RTP: 96.20%"');
    expect(svg).toContain('<title>Book of Dead (Play&#39;n GO): provider-stated RTP 96.20%</title>');
    expect(svg).toContain('>96.20%</text>');
    expect(badgeFigure(96)).toBe('96.00%');
    expect(badgeFigure(94.125)).toBe('94.125%'); // as stated, never rounded (the same figure as the pages)
  });

  it('escapes hostile names, leaving no markup but its own', () => {
    const svg = renderBadge({ canonical_name: '<script>alert(1)</script>"', provider_display: '</title><svg onload=x>', stated_rtp: 90 });
    expect(svg).not.toMatch(/<script|<svg onload|<\/title><svg/);
    expect(svg).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;');
    expect(
      svg
        .match(/<(\w+)/g)!
        .map((t) => t.slice(1))
        .sort(),
    ).toEqual(['g', 'rect', 'rect', 'rect', 'svg', 'text', 'text', 'title']);
  });

  it('grows with the figure so the text fits', () => {
    const width = (rtp: number) => Number(/width="(\d+)"/.exec(renderBadge({ canonical_name: 'x', provider_display: 'y', stated_rtp: rtp }))![1]);
    expect(width(100)).toBeGreaterThan(width(9.5));
  });
});
