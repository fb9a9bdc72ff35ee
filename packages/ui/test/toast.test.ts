import { notificationsStore } from '@mantine/notifications';
import { toast, toastCarriesOver } from '../src/toast';

describe('toasts and navigation', () => {
  it('shows one toast at a time: a new one replaces the one showing', () => {
    toast({ title: 'OTP Sent', message: 'Check your email' });
    toast({ title: 'OTP Verified', message: 'Please set your new password' });
    const shown = notificationsStore.getState().notifications;
    expect(shown.map((n) => n.title)).toEqual(['OTP Verified']);
  });

  it('carries a nextPage toast over the navigation after it, and no other toast', () => {
    const before = Date.now();
    const announced = toast({ title: 'Product created', message: 'Listed' }, { nextPage: true });
    const plain = toast({ title: 'Failed to update product', message: 'Changed' });
    expect(toastCarriesOver(announced, before)).toBe(true);
    expect(toastCarriesOver(plain, before)).toBe(false);
    expect(toastCarriesOver(undefined, before)).toBe(false);
  });

  it('closes a nextPage toast at the navigation after the one it announced', () => {
    const announced = toast({ title: 'Logged out', message: 'Bye' }, { nextPage: true });
    const announcedNavigation = Date.now() + 1;
    expect(toastCarriesOver(announced, announcedNavigation)).toBe(false);
  });
});
