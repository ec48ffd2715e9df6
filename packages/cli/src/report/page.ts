/** The start of a self-contained report page: doctype, head (a strict Content-Security-Policy, the inline stylesheet) and the opening of `<main>`. */
import { escapeHtml } from "./escape.js";
import { REPORT_STYLE } from "./style.js";

/** Options of {@link pageStart}. */
export interface PageStartOptions {
  /** The page runs its own inline script (the CSP allows inline scripts only then). */
  inlineScript?: boolean;
  /** CSS added after the shared stylesheet. */
  style?: string;
}

/** Everything up to and including `<main>`; nothing in it is fetched. */
export function pageStart(title: string, options: PageStartOptions = {}): string {
  const script = options.inlineScript ? " script-src 'unsafe-inline';" : "";
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline';${script} img-src data:">
<title>${escapeHtml(title)}</title>
<style>${REPORT_STYLE}${options.style ?? ""}</style>
</head>
<body>
<main>`;
}
