/** Colours offered for a label besides any other the colour field picks; the first is SPEC §5's default. */
export const LABEL_SWATCHES = [
  ['red', '#e66465'],
  ['orange', '#f08c00'],
  ['yellow', '#e8b400'],
  ['green', '#2f9e44'],
  ['teal', '#0c8599'],
  ['blue', '#1c7ed6'],
  ['violet', '#7048e8'],
  ['grey', '#868e96'],
] as const;
