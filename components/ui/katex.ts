/**
 * KaTeX with its style sheet, one chunk loaded when the first formula is on screen (see
 * `math-text.tsx`): the sheet (25 KB of rules and its fonts' faces) then loads with the script
 * instead of with every page, whose first style pass had to take in its rules with or without a
 * formula in sight.
 */
import "katex/dist/katex.min.css";

export { default } from "katex";
