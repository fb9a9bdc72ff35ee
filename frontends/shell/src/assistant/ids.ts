/** DOM ids that tie the button, the panel and its title together (aria-controls, aria-labelledby). */
export const PANEL_ID = 'qm-assistant-panel';
export const PANEL_TITLE_ID = 'qm-assistant-title';
