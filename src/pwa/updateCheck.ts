/** How often an open app asks the server whether a new version was deployed (src/pwa/register.ts; stated on the desktop-app page). */
export const UPDATE_CHECK_MS = 60 * 60 * 1000;
