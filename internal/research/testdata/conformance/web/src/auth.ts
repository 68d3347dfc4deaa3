export interface Authenticatable {
  authenticate(user: string, password: string): boolean;
}

export class OAuthUser implements Authenticatable {
  authenticate(user: string, password: string): boolean {
    return user.length > 0;
  }
}

export class Banner {
  authenticate(user: string, password: string): boolean {
    return false;
  }
}
