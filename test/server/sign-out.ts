/** Signs out as the browser's sign-out button does (next-auth's form post with its CSRF token). */
export async function signOut(baseUrl: string, cookie: string): Promise<void> {
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`, { headers: { cookie } });
  const csrfCookies = csrf.headers.getSetCookie().map((line) => line.split(";")[0]);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${baseUrl}/api/auth/signout`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: [cookie, ...csrfCookies].join("; ") },
    body: new URLSearchParams({ csrfToken, callbackUrl: `${baseUrl}/` }),
  });
  await res.arrayBuffer();
  if (res.status !== 302) throw new Error(`sign-out answered ${res.status}`);
}
