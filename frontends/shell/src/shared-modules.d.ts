/** The React Router subset the shell provides to the remotes (rspack.shared.mjs, ROUTER_SUBSET). */
declare module 'qm-shared/react-router-dom' {
  export * from 'react-router-dom';
}
