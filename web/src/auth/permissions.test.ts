import { describe, expect, it } from 'vitest';
import { mayManageRole, permissionsOf } from './permissions';

describe('permissionsOf', () => {
  it('lets an owner or admin of every shop manage shops, users and read the audit log', () => {
    expect(permissionsOf({ role: 'admin', shops: null })).toEqual({
      write: true,
      manageShops: true,
      manageUsers: true,
      readAudit: true,
      manageChannels: true,
    });
  });

  it('keeps an admin limited to some shops off the team list', () => {
    expect(permissionsOf({ role: 'owner', shops: ['a'] }).manageUsers).toBe(false);
  });

  it('lets a marketer write but not change shops, users, channel settings or webhooks, nor read the audit log', () => {
    expect(permissionsOf({ role: 'marketer', shops: null })).toEqual({
      write: true,
      manageShops: false,
      manageUsers: false,
      readAudit: false,
      manageChannels: false,
    });
  });

  it('lets an analyst write nothing, and nobody signed in do anything', () => {
    expect(permissionsOf({ role: 'analyst', shops: null }).write).toBe(false);
    expect(permissionsOf(undefined)).toEqual({
      write: false,
      manageShops: false,
      manageUsers: false,
      readAudit: false,
      manageChannels: false,
    });
  });
});

describe('mayManageRole', () => {
  it('lets an owner manage anyone and an admin anyone but an owner', () => {
    expect(mayManageRole('owner', 'owner')).toBe(true);
    expect(mayManageRole('admin', 'admin')).toBe(true);
    expect(mayManageRole('admin', 'owner')).toBe(false);
    expect(mayManageRole('marketer', 'analyst')).toBe(false);
  });
});
