import { createTheme, defaultVariantColorsResolver, type CSSVariablesResolver } from '@mantine/core';

/**
 * Mantine's defaults put white on blue.6 and blue.6 on a blue tint, below the 4.5:1 contrast
 * that axe requires of text (docs/admin-ui.md, accessibility): the darkest shades carry text here.
 */
export const theme = createTheme({
  primaryShade: 9,
  // A person who asked their system for less motion gets drawers, modals and menus without
  // their slide and fade (the browser tests run so too, and axe never measures a half-faded
  // colour).
  respectReducedMotion: true,
  variantColorResolver: (input) => {
    const resolved = defaultVariantColorsResolver(input);
    if (input.variant !== 'light' && input.variant !== 'subtle') return resolved;
    const color = input.color ?? input.theme.primaryColor;
    if (color.startsWith('#') || color.startsWith('var(') || color.includes('.')) return resolved;
    return { ...resolved, color: `var(--mantine-color-${color}-9)`, hoverColor: `var(--mantine-color-${color}-9)` };
  },
});

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-7)',
  },
  dark: {},
});
