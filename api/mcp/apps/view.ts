/**
 * The View side of every Chokepoint MCP App, run in the host's iframe: the official
 * `@modelcontextprotocol/ext-apps` App (the handshake, the host's notifications, size reports)
 * bundled into one script (bundle.ts → view-script.generated.ts) that each page inlines after its
 * drawing script. The page defines `chokepoint` (runtime.ts): the app's name and how to draw a
 * tool result; this script connects it to the host.
 *
 * Browser code: the DOM is reached through `globalThis`, as the repository compiles for Node.
 */
import { App, applyDocumentTheme, applyHostFonts, applyHostStyleVariables, type McpUiHostContext } from '@modelcontextprotocol/ext-apps';

/** A tool result as the host passes it (a CallToolResult). */
type ToolResult = Parameters<NonNullable<App['ontoolresult']>>[0];

/** What the page's drawing script gives this one. */
interface Page {
  name: string;
  show(result: ToolResult): void;
  setLocale(locale: string): void;
  setMaxHeight(px: number): void;
}

const page = (globalThis as unknown as { chokepoint: Page }).chokepoint;

function applyContext(c: McpUiHostContext | undefined): void {
  if (!c) return;
  if (c.theme === 'light' || c.theme === 'dark') applyDocumentTheme(c.theme);
  if (c.styles?.variables) applyHostStyleVariables(c.styles.variables);
  if (c.styles?.css?.fonts) applyHostFonts(c.styles.css.fonts);
  if (c.locale) page.setLocale(c.locale);
  const d = c.containerDimensions as { maxHeight?: number } | undefined;
  if (d?.maxHeight) page.setMaxHeight(d.maxHeight);
}

const app = new App({ name: page.name, version: '1.0.0' }, { availableDisplayModes: ['inline'] }, { autoResize: true });
app.ontoolresult = (result) => page.show(result);
app.onhostcontextchanged = (context) => applyContext(context);
app.connect().then(
  () => applyContext(app.getHostContext()),
  (err: unknown) =>
    page.show({ isError: true, content: [{ type: 'text', text: `Cannot reach the host: ${err instanceof Error ? err.message : String(err)}` }] }),
);
