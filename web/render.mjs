// Markdown to HTML at build time (tools/build_site.py): reads {name: markdown} as JSON on
// standard input, writes {name: html}.  Run from the build's npm folder, where marked is.
import { marked } from "marked";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const pages = JSON.parse(input);
const out = {};
for (const [name, markdown] of Object.entries(pages)) out[name] = marked.parse(markdown, { gfm: true });
process.stdout.write(JSON.stringify(out));
