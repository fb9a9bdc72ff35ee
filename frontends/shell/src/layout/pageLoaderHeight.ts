/**
 * A page still loading fills the window below the header, so the footer starts below the fold and
 * the page arriving does not push it down on screen (a layout shift, which Lighthouse counts).
 */
export const PAGE_LOADING_HEIGHT = 'calc(100dvh - 64px)';
