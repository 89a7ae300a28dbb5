// Shared by the pages that use the local API token: the token comes once in the URL
// (?token=, as the desktop and `mooring token` give it) and is kept for the tab.
export const $ = (id) => document.querySelector(`[data-testid="${id}"]`);

const fromUrl = new URLSearchParams(location.search).get("token");
if (fromUrl) sessionStorage.setItem("mooring-token", fromUrl);

/** The local API token, or "" when the page was opened without one. */
export const token = fromUrl || sessionStorage.getItem("mooring-token") || "";
