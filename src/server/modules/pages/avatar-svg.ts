const PALETTE = [
  '#2563eb',
  '#0d9488',
  '#7c3aed',
  '#db2777',
  '#ea580c',
  '#16a34a',
  '#0891b2',
  '#9333ea',
];

const hash = (text: string) =>
  [...text].reduce((sum, char) => (sum * 31 + char.charCodeAt(0)) >>> 0, 7);

/** A deterministic initials image for a slug like "acme-robotics" (demo logos and photos). */
export const avatarSvg = (slug: string, shape: 'circle' | 'square'): string => {
  const initials = slug
    .split('-')
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? '')
    .join('');
  const color = PALETTE[hash(slug) % PALETTE.length] ?? '#2563eb';
  const background =
    shape === 'circle'
      ? `<circle cx="48" cy="48" r="48" fill="${color}"/>`
      : `<rect width="96" height="96" rx="18" fill="${color}"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">${background}<text x="48" y="50" dy=".35em" text-anchor="middle" font-family="system-ui, sans-serif" font-size="36" font-weight="600" fill="#fff">${initials}</text></svg>`;
};
