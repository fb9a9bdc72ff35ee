// The subsets the shell provides to the remotes (rspack.shared.mjs, SUBSETS): the names they import.
declare module 'qm-shared/react-router-dom' {
  export * from 'react-router-dom';
}
declare module 'qm-shared/@mantine/core' {
  export * from '@mantine/core';
}
declare module 'qm-shared/@mantine/hooks' {
  export * from '@mantine/hooks';
}
declare module 'qm-shared/@tanstack/react-query' {
  export * from '@tanstack/react-query';
}
declare module 'qm-shared/@qm/ui' {
  export * from '@qm/ui';
}
declare module 'qm-shared/@qm/contracts/rest' {
  export * from '@qm/contracts/rest';
}
