import { defineVariation } from "./define.ts";

export default defineVariation({
  name: "translations-unmarked",
  freedom: "wire-format-translated-text",
  description:
    'Translated content is Latin-script text with nothing that names its language (no "[zh] " prefix): each language its own letter shift of the English text, English unchanged.',
});
