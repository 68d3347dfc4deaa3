def authenticate(user, password)
  !user.empty? && !password.empty?
end
