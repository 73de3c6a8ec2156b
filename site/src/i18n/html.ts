/** Text made safe to put in HTML, for the catalogue's messages that carry markup (their keys end in `Html`). */
export const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
