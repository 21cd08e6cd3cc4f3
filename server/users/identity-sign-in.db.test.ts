import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { createPaper } from "@/db/queries/papers";
import { countUsers, createUser, getUserByEmail } from "@/db/queries/users";
import { addMember } from "@/server/papers/add-member";
import { listPapers } from "@/server/papers/read-papers";
import { openTestDatabase, testDatabaseKinds } from "@/test/databases";
import { userForIdentity } from "./sign-in";

const paper = (id: string) => ({ id, title: id, paperMarkdown: "", addendum: "", judgeAddendum: "", blacklist: [] });

// GitHub and OIDC sign-ins find their studio user by email: that is how an invite (a membership
// given to an email before its owner ever signed in) reaches the person who signs in.
describe.each(testDatabaseKinds())("signing in through GitHub or OIDC on %s", (kind) => {
  let handle: DbHandle;
  let staffId: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    staffId = (await createUser(handle.db, { email: "staff@example.org", isStaff: true })).id;
    for (const id of ["invited-a", "invited-b", "not-invited"]) await createPaper(handle.db, paper(id), staffId);
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("an invited user (email only, no password) gets that user's id and memberships, whatever the email's case", async () => {
    const invite = await addMember(handle, {
      paperId: "invited-a",
      email: "Ada.Lovelace@Example.org",
      role: "author",
      addedBy: staffId,
    });
    await addMember(handle, {
      paperId: "invited-b",
      email: "ada.lovelace@example.org",
      role: "grader",
      addedBy: staffId,
    });
    const invited = (await getUserByEmail(handle.db, "ada.lovelace@example.org"))!;
    expect(invited).toMatchObject({ id: invite.userId, passwordHash: null });
    const users = await countUsers(handle.db);

    for (const email of ["ada.lovelace@example.org", "ADA.LOVELACE@EXAMPLE.ORG", "  Ada.Lovelace@example.ORG "]) {
      const user = await userForIdentity(handle, email, "Ada L.");
      expect([email, user.id]).toEqual([email, invited.id]);
      expect(user.isStaff).toBe(false);
      expect((await listPapers(handle, user)).map((p) => [p.id, p.role])).toEqual([
        ["invited-a", "author"],
        ["invited-b", "grader"],
      ]);
    }
    expect(await countUsers(handle.db)).toBe(users);
  });

  it("a user with a password who signs in through a provider with the same email is the same user", async () => {
    const withPassword = await createUser(handle.db, {
      email: "grace@example.org",
      name: "Grace",
      passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$x$y",
    });
    const user = await userForIdentity(handle, "Grace@Example.org", "Grace Hopper");
    expect(user).toMatchObject({ id: withPassword.id, name: "Grace", passwordHash: withPassword.passwordHash });
  });

  it("an unknown email becomes a new user without a password, staff role or membership, named by the provider", async () => {
    const users = await countUsers(handle.db);
    const user = await userForIdentity(handle, "New.Person@Example.org", "New Person");
    expect(user).toMatchObject({
      email: "new.person@example.org",
      name: "New Person",
      passwordHash: null,
      isStaff: false,
    });
    expect(await listPapers(handle, user)).toEqual([]);
    expect(await countUsers(handle.db)).toBe(users + 1);
    // The next sign-in finds that user again.
    expect((await userForIdentity(handle, "new.person@example.org", null)).id).toBe(user.id);
    expect(await countUsers(handle.db)).toBe(users + 1);
  });
});
