export function authenticate(user: string, password: string): boolean {
  return user !== '' && password !== '';
}
