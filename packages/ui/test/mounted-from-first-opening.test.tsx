import { lazy } from 'react';
import { renderToStaticMarkup, renderToString } from 'react-dom/server';
import { MountedFromFirstOpening } from '../src/components/MountedFromFirstOpening';

/** A dialog's code, as `lazy` imports it. */
const Dialog = ({ title }: { title: string }) => <div role="dialog">{title}</div>;

describe('MountedFromFirstOpening', () => {
  it('renders nothing, and loads nothing, until first opened', () => {
    let loads = 0;
    const Lazy = lazy(async () => {
      loads++;
      return { default: Dialog };
    });
    expect(
      renderToStaticMarkup(
        <MountedFromFirstOpening opened={false}>
          <Lazy title="Edit Product" />
        </MountedFromFirstOpening>,
      ),
    ).toBe('');
    expect(loads).toBe(0);
  });

  it('renders its children once opened', () => {
    expect(
      renderToStaticMarkup(
        <MountedFromFirstOpening opened>
          <Dialog title="Add Money" />
        </MountedFromFirstOpening>,
      ),
    ).toBe('<div role="dialog">Add Money</div>');
  });

  it('shows nothing in their place while their code is on its way', () => {
    const Pending = lazy(() => new Promise<{ default: typeof Dialog }>(() => undefined));
    // A server render streams a Suspense boundary's fallback: none, so only React's markers.
    const html = renderToString(
      <MountedFromFirstOpening opened>
        <Pending title="Transfer" />
      </MountedFromFirstOpening>,
    );
    expect(html).not.toContain('Transfer');
    expect(html.replace(/<!--[^>]*-->|<template[^>]*><\/template>/g, '')).toBe('');
  });
});
