/** The product's name and slug, in one place (the slug also names the built-in pseudo-adapter). */
export const product = { name: 'Cartograph', slug: 'cartograph' } as const;
